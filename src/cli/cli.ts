/**
 * The command line: run a goal and wait, start one detached, look at a run, cancel it, read its trace,
 * run a worker or the embedded server. Every command talks through the same client API.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { answerLines, runTable, stateTable, summaryLine } from './format.ts';
import { serveHttp } from '../http/serve.ts';
import { openRuntime, type Runtime, type RuntimeOptions } from './runtime.ts';
import { recordCommand, recordingDirOf, replayCommand } from '../recording/commands.ts';
import { RUN_STATUSES, type PendingApproval, type RunStatus } from '../wire/types.ts';
import { type RunInput } from '../wire/run-input.ts';

/** How people invoke this CLI (an npm script: it runs on the project's pinned Node 22). */
const AGENT = 'npm run agent --';

const USAGE = `usage: ${AGENT} <command> [options]

  demo                       run the demo question end to end (the main job)
  run <goal>                 run a goal and wait; prints the one-line summary and the answer
  start <goal>               start a run detached; prints its run id
  status <runId>             show a run's state
  result <runId>             wait for a run to end and print its summary
  cancel <runId>             cancel a run             [--reason "..."]
  approve <runId> [callKey]  show the pending call's final arguments and approve it   [--yes] [--by name] [--no-wait]
  reject <runId> [callKey]   reject the pending call  [--reason "..."] [--by name] [--no-wait]
                             (works with no worker alive: the decision waits for one; --no-wait sends it and returns)
  answer <runId> "<text>"    answer the question the agent asked (ask_user)
  trace <runId>              print a run's trace (JSONL)
  record <runId>             write the run's recording (model replies, tool results, decisions, result)
                             [--out file] [--as-task eval/recorded/tasks.json]
  replay <file>              replay a recording with no model and print the trajectory diff  [--policy json]
                             [--limits json] [--lenient] [--tool-mode dry-run|recorded|live] [--workspace dir]
                             [--extra-approvals approve|reject] [--no-worker]
  list                       list runs, newest first  [--status s1,s2] [--pending] [--tool name] [--limit n]
  serve                      the HTTP API, live events and the approvals inbox  [--port n] [--host h] [--no-worker]
  worker                     run a worker until Ctrl-C
  server                     run the embedded Temporal dev server until Ctrl-C

run/start options:
  --model <name>             scripted:<name|path> or a provider model (default: $MODEL, or scripted:plan
                             without OPENAI_API_KEY/OPENAI_BASE_URL, gpt-4o-mini with them)
  --max-turns <n>  --max-budget <usd>  --max-wall-ms <ms>  --workspace <dir>  --fatal-tool-errors
  --tools <a,b,...>          the tools the model may use (default: all)
  --no-worker                do not start a worker in this process (use running ones)

serve: AGENT_HTTP_TOKENS="name:token:role[+role],…" (roles viewer, approver, operator) or AGENT_HTTP_TOKENS_FILE;
       without tokens it listens on 127.0.0.1 only. AGENT_HTTP_PORT (default 8787), AGENT_HTTP_HOST.

environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, OPENAI_BASE_URL, OPENAI_API_KEY, MODEL,
             AGENT_DATA_DIR, AGENT_WORKSPACE, AGENT_WORKSPACE_ROOTS, AGENT_TASK_QUEUE, AGENT_SCENARIO_DIRS`;

const DEMO_GOAL = 'Which log file mentions a timeout, and what does it say?';

const log = (line: string) => console.error(line);

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      model: { type: 'string' },
      'max-turns': { type: 'string' },
      'max-budget': { type: 'string' },
      'max-wall-ms': { type: 'string' },
      workspace: { type: 'string' },
      tools: { type: 'string' },
      'fatal-tool-errors': { type: 'boolean' },
      'no-worker': { type: 'boolean' },
      'no-wait': { type: 'boolean' },
      reason: { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      by: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      status: { type: 'string' },
      pending: { type: 'boolean' },
      tool: { type: 'string' },
      limit: { type: 'string' },
      out: { type: 'string' },
      'as-task': { type: 'string' },
      policy: { type: 'string' },
      limits: { type: 'string' },
      lenient: { type: 'boolean' },
      'tool-mode': { type: 'string' },
      'extra-approvals': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (!command || values.help) {
    console.log(USAGE);
    return command || values.help ? 0 : 2;
  }
  const runInput = (goal: string | undefined): RunInput => {
    if (!goal) throw new UsageError(`"${command}" needs a goal: ${AGENT} ${command} "what to do"`);
    return {
      goal,
      model: values.model ?? defaultModel(),
      limits: {
        ...(values['max-turns'] ? { maxTurns: Number(values['max-turns']) } : {}),
        ...(values['max-budget'] ? { maxBudgetUsd: Number(values['max-budget']) } : {}),
        ...(values['max-wall-ms'] ? { maxWallMs: Number(values['max-wall-ms']) } : {}),
      },
      ...(values.workspace ? { workspace: path.resolve(values.workspace) } : {}),
      ...(values.tools ? { tools: values.tools.split(',').map((t) => t.trim()) } : {}),
      ...(values['fatal-tool-errors'] ? { toolErrorsAreFatal: true } : {}),
    };
  };
  const runId = () => {
    if (!rest[0]) throw new UsageError(`"${command}" needs a run id: ${AGENT} ${command} <runId>`);
    return rest[0];
  };

  switch (command) {
    case 'demo':
      // The seed's question, with the seed's two tools.
      return withRuntime(WITH_SCRIPTED_WORKER, (rt) => runAndWait(rt, { tools: ['list_files', 'read_file'], ...runInput(rest.join(' ') || DEMO_GOAL) }));
    case 'run':
      return withRuntime(values['no-worker'] ? NO_WORKER : WITH_SCRIPTED_WORKER, (rt) => runAndWait(rt, runInput(rest.join(' '))));
    case 'start':
      return withRuntime(NO_WORKER, async (rt) => {
        const { runId: id } = await rt.agents.startRun(runInput(rest.join(' ')));
        console.log(id);
        if (rt.endpoint.owned) log(`No Temporal server was running; the run is stored and goes on when a server and a worker run (${AGENT} server, ${AGENT} worker).`);
        return 0;
      });
    case 'status':
      return withRuntime(NO_WORKER, async (rt) => (console.log(stateTable(await rt.agents.getState(runId()))), 0));
    case 'result':
      return withRuntime(NO_WORKER, async (rt) => {
        const result = await rt.agents.result(runId());
        console.log(summaryLine(result, Date.parse(result.finishedAt) - Date.parse(result.startedAt)));
        for (const line of answerLines(result)) console.log(line);
        return result.status === 'completed' ? 0 : 1;
      });
    case 'cancel':
      return withRuntime(NO_WORKER, async (rt) => {
        await rt.agents.cancelRun(runId(), values.reason ?? 'cancelled from the command line');
        console.log(`cancel requested for ${runId()}`);
        return 0;
      });
    case 'approve':
    case 'reject':
      return withRuntime(NO_WORKER, async (rt) => {
        const pending = await rt.agents.pendingApproval(runId());
        if (!pending) throw new UsageError(`Run ${runId()} is not waiting for an approval.`);
        if (rest[1] && rest[1] !== pending.callKey) throw new UsageError(`The pending call is "${pending.callKey}", not "${rest[1]}".`);
        console.log(pendingText(pending));
        const by = values.by ?? process.env.USER;
        // The Update answers once a worker has applied it; with no worker alive that waits for one.
        const wait = { wait: !values['no-wait'] };
        const sent = values['no-wait'] ? ' (sent as a signal: the run applies it when a worker runs; a refused decision is only recorded in its trace)' : '';
        if (command === 'reject') {
          await rt.agents.reject(runId(), { callKey: pending.callKey, ...(values.reason ? { reason: values.reason } : {}), ...(by ? { by } : {}) }, wait);
          console.log(`rejected ${pending.callKey}${sent}`);
          return 0;
        }
        if (!values.yes && !(await confirm('Approve exactly these arguments? [y/N] '))) {
          console.log('not approved');
          return 1;
        }
        // The approval quotes the hash of the arguments shown above: if they changed, the run refuses it.
        await rt.agents.approve(runId(), { callKey: pending.callKey, argsHash: pending.argsHash, ...(by ? { by } : {}) }, wait);
        console.log(`approved ${pending.callKey}${sent}`);
        return 0;
      });
    case 'answer':
      return withRuntime(NO_WORKER, async (rt) => {
        const text = rest.slice(1).join(' ');
        if (!text) throw new UsageError(`"answer" needs the text: ${AGENT} answer ${runId()} "your answer"`);
        const { callKey } = await rt.agents.answer(runId(), text);
        console.log(`answered ${callKey}`);
        return 0;
      });
    case 'trace':
      // From the store every host writes to: the whole trace, wherever the run went. `> run.jsonl` exports it.
      return withRuntime(NO_WORKER, async (rt) => {
        const lines = await rt.store.readTrace(runId());
        if (!lines.length) throw new UsageError(`No trace for "${runId()}" in the store (${rt.store.location}).`);
        for (const line of lines) console.log(JSON.stringify(line));
        return 0;
      });
    case 'record':
      return withRuntime(NO_WORKER, async (rt) => {
        for (const line of await recordCommand(rt, runId(), { ...(values.out ? { out: values.out } : {}), ...(values['as-task'] ? { asTask: values['as-task'] } : {}) })) console.log(line);
        return 0;
      });
    case 'replay': {
      // A worker here serves the recording (its directory is allowed for the in-process scripted model).
      const file = rest[0];
      if (!file) throw new UsageError(`"replay" needs a recording: ${AGENT} replay recordings/<runId>.json`);
      const options = values['no-worker'] ? NO_WORKER : { ...WITH_SCRIPTED_WORKER, recordingDirs: [recordingDirOf(file)] };
      // A strict replay that diverges fails its model call on purpose: the report says so, not a worker warning.
      process.env.TEMPORAL_LOG_LEVEL ??= 'ERROR';
      return withRuntime(options, async (rt) => {
        const { text } = await replayCommand(rt, file, {
          ...(values.policy ? { policy: values.policy } : {}),
          ...(values.limits ? { limits: values.limits } : {}),
          ...(values.lenient ? { lenient: true } : {}),
          ...(values['tool-mode'] ? { toolMode: values['tool-mode'] } : {}),
          ...(values.workspace ? { workspace: values.workspace } : {}),
          ...(values['extra-approvals'] ? { extraApprovals: values['extra-approvals'] } : {}),
        });
        console.log(text);
        return 0;
      });
    }
    case 'list':
      return withRuntime(NO_WORKER, async (rt) => {
        const runs = await rt.agents.listRuns({
          ...(values.status ? { status: parseStatuses(values.status) } : {}),
          ...(values.pending ? { pending: true } : {}),
          ...(values.tool ? { tool: values.tool } : {}),
          ...(values.limit ? { limit: Number(values.limit) } : {}),
        });
        console.log(runTable(runs));
        return 0;
      });
    case 'serve':
      // The HTTP API and the inbox; a worker (serving scripted models too, like `run`) unless --no-worker.
      return withRuntime(values['no-worker'] ? NO_WORKER : WITH_SCRIPTED_WORKER, async (rt) => {
        const server = await serveHttp({
          agents: rt.agents,
          store: rt.store,
          ...(values.port ? { port: Number(values.port) } : {}),
          ...(values.host ? { host: values.host } : {}),
          temporalUiUrl: rt.endpoint.uiUrl,
          log,
        });
        console.log(`Serving ${server.url} — inbox ${server.url}/ui, API ${server.url}/openapi.json${rt.worker ? ', with a worker' : ''}. Ctrl-C stops it.`);
        await untilSignal();
        await server.close();
        return 0;
      });
    case 'worker':
      // A production worker: it serves scripted models only when AGENT_SCRIPTED_MODEL_URL names a server.
      return withRuntime({ worker: true }, async (rt) => {
        log(`Worker polling task queue "${rt.agents.taskQueue}" on ${rt.endpoint.address}. Ctrl-C stops it.`);
        await untilSignal();
        log('Worker stopping: tasks in flight finish or are handed back to Temporal.');
        return 0;
      });
    case 'server':
      return withRuntime(NO_WORKER, async (rt) => {
        log(`Temporal at ${rt.endpoint.address}${rt.endpoint.uiUrl ? `, Web UI ${rt.endpoint.uiUrl}` : ''}. Ctrl-C stops it.`);
        await untilSignal();
        return 0;
      });
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  }
}

async function runAndWait(rt: Runtime, input: RunInput): Promise<number> {
  const started = performance.now();
  const { runId } = await rt.agents.startRun(input);
  log(`run ${runId}: ${input.model} — ${input.goal}`);
  const stop = () => void rt.agents.cancelRun(runId, 'user pressed Ctrl-C').catch(() => {});
  process.once('SIGINT', stop);
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
  }
}

/** Shows, while a run goes on, its progress labels and what it waits for (polling the state query). */
function watchProgress(rt: Runtime, runId: string, started: number): { stop(): void } {
  let last = '';
  const timer = setInterval(() => {
    rt.agents
      .getState(runId)
      .then((state) => {
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
  return { stop: () => clearInterval(timer) };
}

function parseStatuses(text: string): RunStatus[] {
  const statuses = text.split(',').map((s) => s.trim());
  const unknown = statuses.find((s) => !(RUN_STATUSES as readonly string[]).includes(s));
  if (unknown !== undefined) throw new UsageError(`Unknown status "${unknown}"; statuses are ${RUN_STATUSES.join(', ')}.`);
  return statuses as RunStatus[];
}

function pendingText(p: PendingApproval): string {
  return [
    `run waits for approval of call ${p.callKey}: ${p.toolName} (risk ${p.risk}; ${p.why})`,
    `arguments: ${JSON.stringify(p.args, null, 2)}`,
    `argsHash:  ${p.argsHash}`,
  ].join('\n');
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) throw new UsageError('No terminal to confirm on: pass --yes to approve without a prompt.');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

function defaultModel(): string {
  if (process.env.MODEL) return process.env.MODEL;
  return process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL ? 'gpt-4o-mini' : 'scripted:plan';
}

const NO_WORKER: Omit<RuntimeOptions, 'log'> = { worker: false };
/** demo and run: a worker in this process, serving the scripted model too (a test and demo facility). */
const WITH_SCRIPTED_WORKER: Omit<RuntimeOptions, 'log'> = { worker: true, scriptedModel: true };

async function withRuntime(options: Omit<RuntimeOptions, 'log'>, body: (rt: Runtime) => Promise<number>): Promise<number> {
  const rt = await openRuntime({ ...options, log });
  try {
    return await body(rt);
  } finally {
    await rt.close();
  }
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

class UsageError extends Error {
  override readonly name = 'UsageError';
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError || (error instanceof Error && error.name.endsWith('Error') && error.name !== 'Error') ? `${error.name}: ${(error as Error).message}` : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
