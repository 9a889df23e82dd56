/**
 * One function per command. Most talk through the client API (`rt.agents`); `trace` and `record` read the
 * store every host writes to, and `worker`/`server` keep a process up until Ctrl-C. The HTTP server and the
 * recording code load only in the commands that use them: every other command starts without them.
 */
import { createInterface } from 'node:readline/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { runTable, stateTable, summaryLine, answerLines } from './format.ts';
import { AGENT, limitsOption, log, NO_WORKER, numberOption, runIdOf, untilSignal, UsageError, WITH_SCRIPTED_WORKER, withRuntime, type Invocation } from './context.ts';
import { runAndWait } from './run-and-wait.ts';
import { gcCommand } from './gc-command.ts';
import { scheduleCommand } from './schedule-command.ts';
import { buildText, upgrade } from './upgrade-command.ts';
import { noWorkerHint, servesScripted } from './keyless.ts';
import { workflowPollers } from './worker-presence.ts';
import type { Runtime } from './runtime.ts';
import { MODEL_CALLS, type ModelCall, type RunInput } from '../wire/run-input.ts';
import { RUN_STATUSES, type PendingApproval, type RunStatus } from '../wire/types.ts';

const DEMO_GOAL = 'Which log file mentions a timeout, and what does it say?';

export const COMMANDS: Readonly<Record<string, (invocation: Invocation) => Promise<number>>> = {
  demo: (inv) => {
    // The seed's question, with the seed's two tools.
    const input: RunInput = { tools: ['list_files', 'read_file'], ...runInputOf(inv, inv.rest.join(' ') || DEMO_GOAL) };
    return withRuntime(WITH_SCRIPTED_WORKER, (rt) => runAndWait(rt, input));
  },
  run: (inv) => {
    const input = runInputOf(inv, inv.rest.join(' '));
    return withRuntime(inv.values['no-worker'] ? NO_WORKER : WITH_SCRIPTED_WORKER, (rt) => runAndWait(rt, input));
  },
  start: (inv) => {
    const input = runInputOf(inv, inv.rest.join(' '));
    return withRuntime(NO_WORKER, async (rt) => {
      const { runId } = await rt.agents.startRun(input);
      console.log(runId);
      if (rt.endpoint.owned) log(`No Temporal server was running; the run is stored and goes on when a server and a worker run (${AGENT} server, ${AGENT} worker).`);
      else if (!(await workflowPollers(rt.agents.temporal, rt.agents.taskQueue)).length) log(noWorkerHint(rt.agents.taskQueue));
      return 0;
    });
  },
  status: (inv) => onRun(inv, async (rt, runId) => (console.log(stateTable(await rt.agents.getState(runId))), 0)),
  result: (inv) =>
    onRun(inv, async (rt, runId) => {
      const result = await rt.agents.result(runId);
      console.log(summaryLine(result, Date.parse(result.finishedAt) - Date.parse(result.startedAt)));
      for (const line of answerLines(result)) console.log(line);
      return result.status === 'completed' ? 0 : 1;
    }),
  cancel: (inv) =>
    onRun(inv, async (rt, runId) => {
      try {
        await rt.agents.cancelRun(runId, inv.values.reason ?? 'cancelled from the command line');
      } catch (error) {
        // cancelRun tells a run that never was (RunNotFoundError) from one that has ended (Temporal's signal
        // error): the latter said as the HTTP API says it (409).
        if ((error as Error).name !== 'WorkflowNotFoundError') throw error;
        log(`Run ${runId} has already ended (${(await rt.agents.getState(runId)).status}): nothing to cancel. Its outcome: ${AGENT} result ${runId}`);
        return 1;
      }
      console.log(`cancel requested for ${runId}`);
      return 0;
    }),
  approve: decide,
  reject: decide,
  answer: (inv) => {
    const text = inv.rest.slice(1).join(' ');
    if (!text) throw new UsageError(`"answer" needs the text: ${AGENT} answer ${runIdOf(inv)} "your answer"`);
    return onRun(inv, async (rt, runId) => {
      const { callKey } = await rt.agents.answer(runId, text);
      console.log(`answered ${callKey}`);
      return 0;
    });
  },
  trace: (inv) =>
    // From the store every host writes to: the whole trace, wherever the run went. `> run.jsonl` exports it.
    onRun(inv, async (rt, runId) => {
      const lines = await rt.store.readTrace(runId);
      if (!lines.length) throw new UsageError(`No trace for "${runId}" in the store (${rt.store.location}).`);
      for (const line of lines) console.log(JSON.stringify(line));
      return 0;
    }),
  record: (inv) =>
    onRun(inv, async (rt, runId) => {
      const { out, 'as-task': asTask } = inv.values;
      const { recordCommand } = await import('../recording/commands.ts');
      for (const line of await recordCommand(rt, runId, { ...(out ? { out } : {}), ...(asTask ? { asTask } : {}) })) console.log(line);
      return 0;
    }),
  replay,
  gc: gcCommand,
  schedule: scheduleCommand,
  list: (inv) => {
    const { status, pending, tool } = inv.values;
    const limit = numberOption(inv.values, 'limit', 'count');
    return withRuntime(NO_WORKER, async (rt) => {
      const runs = await rt.agents.listRuns({
        ...(status ? { status: parseStatuses(status) } : {}),
        ...(pending ? { pending: true } : {}),
        ...(tool ? { tool } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      console.log(runTable(runs));
      return 0;
    });
  },
  agents: async () => {
    // From the store alone: what the workers published, so it answers with no worker and no Temporal server.
    const [{ openStore }, { listOffers }, { offersText }, { dataDir }] = await Promise.all([
      import('../store/open-store.ts'),
      import('../offers/listing.ts'),
      import('./offers-text.ts'),
      import('../paths.ts'),
    ]);
    const store = await openStore({ dataDir: dataDir() });
    try {
      console.log(offersText(listOffers(await store.listWorkerOffers(), Date.now()), store.location, `${AGENT} worker`));
    } finally {
      await store.close();
    }
    return 0;
  },
  serve: (inv) => {
    const port = numberOption(inv.values, 'port', 'port');
    const { host } = inv.values;
    // The HTTP API and the inbox; a worker (serving scripted models too, like `run`) unless --no-worker.
    return withRuntime({ ...(inv.values['no-worker'] ? NO_WORKER : WITH_SCRIPTED_WORKER), waitForStore: true }, async (rt) => {
      const { serveHttp } = await import('../http/serve.ts');
      const server = await serveHttp({ agents: rt.agents, store: rt.store, ...(port !== undefined ? { port } : {}), ...(host ? { host } : {}), temporalUiUrl: rt.endpoint.uiUrl, log });
      console.log(`Serving ${server.url} — inbox ${server.url}/ui, API ${server.url}/openapi.json${rt.worker ? ', with a worker' : ''}. Ctrl-C stops it.`);
      await untilSignal();
      await server.close();
      return 0;
    });
  },
  worker: async (inv) => {
    // Worker Versioning, opt-in: --deployment (AGENT_DEPLOYMENT_NAME) and --build-id (AGENT_BUILD_ID).
    const { deploymentFromEnv } = await import('../worker/deployment.ts');
    const deployment = deploymentFromEnv(process.env, { name: inv.values.deployment, buildId: inv.values['build-id'], behavior: inv.values.versioning });
    // A production worker: it serves scripted models only with --scripted (AGENT_SCRIPTED_MODELS=1), played in
    // this process as `run` plays them, or when AGENT_SCRIPTED_MODEL_URL names a scripted model server.
    return withRuntime({ worker: true, deployment, scriptedModel: servesScripted(inv), waitForStore: true }, async (rt) => {
      if (deployment) log(`Worker Versioning: deployment "${deployment.name}", build "${deployment.buildId}", runs ${deployment.behavior ?? 'pinned'}.`);
      // The heap limit sizes garbage collection, so resident memory (src/worker/node-args.ts).
      const heapMiB = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
      const scripted = servesScripted(inv) ? ', serving scripted:* models too' : '';
      log(`Worker polling task queue "${rt.agents.taskQueue}" on ${rt.endpoint.address} (heap limit ${heapMiB} MiB${scripted}). Ctrl-C stops it.`);
      await untilSignal();
      log('Worker stopping: tasks in flight finish or are handed back to Temporal.');
      return 0;
    });
  },
  build: (inv) => onRun(inv, async (rt, runId) => (console.log(await buildText(rt, runId)), 0)),
  upgrade,
  reset: async () => (await import('./reset.ts')).resetDemoWorkspace(),
  server: () =>
    withRuntime(NO_WORKER, async (rt) => {
      log(`Temporal at ${rt.endpoint.address}${rt.endpoint.uiUrl ? `, Web UI ${rt.endpoint.uiUrl}` : ''}. Ctrl-C stops it.`);
      await untilSignal();
      return 0;
    }),
};

/** A command about one run: its id is checked before any connection is made. */
function onRun(inv: Invocation, body: (rt: Runtime, runId: string) => Promise<number>): Promise<number> {
  const runId = runIdOf(inv);
  return withRuntime(NO_WORKER, (rt) => body(rt, runId));
}

/** The run input of `demo`, `run` and `start`, from the goal and the options. */
function runInputOf({ command, values }: Invocation, goal: string | undefined): RunInput {
  if (!goal) throw new UsageError(`"${command}" needs a goal: ${AGENT} ${command} "what to do"`);
  return {
    goal,
    model: values.model ?? defaultModel(),
    limits: limitsOption(values),
    ...(values.workspace ? { workspace: path.resolve(values.workspace) } : {}),
    ...(values.tools ? { tools: values.tools.split(',').map((t) => t.trim()) } : {}),
    ...(values['fatal-tool-errors'] ? { toolErrorsAreFatal: true } : {}),
    ...(values['model-call'] ? { modelCall: modelCallOf(values['model-call']) } : {}),
  };
}

function modelCallOf(text: string): ModelCall {
  if ((MODEL_CALLS as readonly string[]).includes(text)) return text as ModelCall;
  throw new UsageError(`--model-call is "${text}": give activity (the default) or local (a local activity: one round trip less per turn; README, "How it works").`);
}

function defaultModel(): string {
  if (process.env.MODEL) return process.env.MODEL;
  return process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL ? 'gpt-4o-mini' : 'scripted:plan';
}

/** `approve` and `reject`: show the pending call's final arguments, then decide exactly that call. */
function decide(inv: Invocation): Promise<number> {
  const { command, rest, values } = inv;
  return onRun(inv, async (rt, runId) => {
    const pending = await rt.agents.pendingApproval(runId);
    if (!pending) throw new UsageError(`Run ${runId} is not waiting for an approval.`);
    if (rest[1] && rest[1] !== pending.callKey) throw new UsageError(`The pending call is "${pending.callKey}", not "${rest[1]}".`);
    console.log(pendingText(pending));
    const by = values.by ?? process.env.USER;
    // The Update answers once a worker has applied it; with no worker alive that waits for one.
    const wait = { wait: !values['no-wait'] };
    const sent = values['no-wait'] ? ' (sent as a signal: the run applies it when a worker runs; a refused decision is only recorded in its trace)' : '';
    if (command === 'reject') {
      await rt.agents.reject(runId, { callKey: pending.callKey, ...(values.reason ? { reason: values.reason } : {}), ...(by ? { by } : {}) }, wait);
      console.log(`rejected ${pending.callKey}${sent}`);
      return 0;
    }
    if (!values.yes && !(await confirm('Approve exactly these arguments? [y/N] '))) {
      console.log('not approved');
      return 1;
    }
    // The approval quotes the hash of the arguments shown above: if they changed, the run refuses it.
    await rt.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, ...(by ? { by } : {}) }, wait);
    console.log(`approved ${pending.callKey}${sent}`);
    return 0;
  });
}

async function replay({ rest, values }: Invocation): Promise<number> {
  const file = rest[0];
  if (!file) throw new UsageError(`"replay" needs a recording: ${AGENT} replay recordings/<runId>.json`);
  if (!existsSync(file)) {
    // A run id where the recording's file was expected: the recording it would be, if there is one.
    const recorded = path.join('recordings', `${file}.json`);
    throw new UsageError(
      existsSync(recorded)
        ? `No file "${file}": replay takes a recording file — ${AGENT} replay ${recorded}`
        : `No file "${file}": replay takes a recording file. Record the run first (${AGENT} record <runId> writes recordings/<runId>.json), then ${AGENT} replay recordings/<runId>.json`,
    );
  }
  const { recordingDirOf, replayCommand } = await import('../recording/commands.ts');
  // A worker here serves the recording (its directory is allowed for the in-process scripted model).
  const options = values['no-worker'] ? NO_WORKER : { ...WITH_SCRIPTED_WORKER, recordingDirs: [recordingDirOf(file)] };
  // A strict replay that diverges fails its model call on purpose: the report says so, not a worker warning.
  process.env.TEMPORAL_LOG_LEVEL ??= 'ERROR';
  return withRuntime(options, async (rt) => {
    const { text, diverged } = await replayCommand(rt, file, {
      ...(values.policy ? { policy: values.policy } : {}),
      ...(values.limits ? { limits: values.limits } : {}),
      ...(values.lenient ? { lenient: true } : {}),
      ...(values['tool-mode'] ? { toolMode: values['tool-mode'] } : {}),
      ...(values.workspace ? { workspace: values.workspace } : {}),
      ...(values['extra-approvals'] ? { extraApprovals: values['extra-approvals'] } : {}),
    });
    console.log(text);
    if (diverged) log('the strict replay diverged from the recording (above): exit status 1; --lenient reports without failing.');
    return diverged ? 1 : 0;
  });
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
