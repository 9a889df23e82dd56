/** `demo` and `run`: start a run, show its progress and what it waits for, print the summary; Ctrl-C cancels it. */
import { answerLines, summaryLine } from './format.ts';
import { AGENT, log } from './context.ts';
import type { Runtime } from './runtime.ts';
import type { RunInput } from '../wire/run-input.ts';

export async function runAndWait(rt: Runtime, input: RunInput): Promise<number> {
  const started = performance.now();
  const { runId } = await rt.agents.startRun(input);
  log(`run ${runId}: ${input.model} — ${input.goal}`);
  const stop = onInterrupt(rt, runId);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const watching = watchProgress(rt, runId, started);
  try {
    const result = await rt.agents.result(runId);
    watching.stop();
    console.log(summaryLine(result, performance.now() - started));
    for (const line of answerLines(result)) console.log(line);
    log(`trace: ${AGENT} trace ${runId}`);
    return result.status === 'completed' ? 0 : 1;
  } finally {
    watching.stop();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/**
 * Ctrl-C (or SIGTERM): cancel the run, and keep this process's worker up until the run has ended on it
 * (Temporal's runtime leaves signals to us: runtime.ts), so the cancel is applied at once and the summary
 * says `interrupted`. A terminal sends SIGINT to the whole group and `npm run` forwards it once more: the
 * signals of one press (within a second) count once; a later press quits without waiting.
 */
function onInterrupt(rt: Runtime, runId: string): (signal: NodeJS.Signals) => void {
  let first = 0;
  return (signal) => {
    const now = performance.now();
    if (!first) {
      first = now;
      log(`${signal === 'SIGINT' ? 'Ctrl-C' : signal}: cancelling run ${runId}; the worker in this process stops once the run has ended. Ctrl-C again quits without waiting.`);
      rt.agents.cancelRun(runId, signal === 'SIGINT' ? 'user pressed Ctrl-C' : `the command line got ${signal}`).catch((error: unknown) => log(`the cancel was not sent: ${error instanceof Error ? error.message : String(error)} (${AGENT} cancel ${runId})`));
      return;
    }
    if (now - first < 1000) return;
    log(`quitting without waiting: run ${runId} goes on in Temporal (${AGENT} status ${runId})`);
    process.exit(130);
  };
}

/** Shows, while a run goes on, its progress labels and what it waits for (polling the state query). */
function watchProgress(rt: Runtime, runId: string, started: number): { stop(): void } {
  let last = '';
  // A look still under way when the run ends (its query may fail as the run closes) must print nothing after the summary.
  let stopped = false;
  const timer = setInterval(() => {
    rt.agents
      .getState(runId)
      .then((state) => {
        if (stopped) return;
        const line =
          state.pending?.kind === 'approval'
            ? `waiting for approval of ${state.pending.toolName} ${JSON.stringify(state.pending.args)}: ${AGENT} approve ${runId}  |  ${AGENT} reject ${runId} --reason "..."`
            : state.pending?.kind === 'input'
              ? `the agent asks: ${state.pending.question}  (${AGENT} answer ${runId} "...")`
              : state.progress
              ? `progress: ${state.progress}`
              : '';
        if (line && line !== last) log(`${line}  (t+${Math.round(performance.now() - started)} ms)`);
        last = line || last;
      })
      .catch(() => {});
  }, 300);
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
