#!/usr/bin/env node
/**
 * The command line: run a goal and wait, start one detached, look at a run, decide what it waits for,
 * cancel it, read its trace, record and replay it, or keep a worker, the HTTP API or the embedded server up.
 * The commands are in commands.ts, one function each.
 */
import { COMMANDS } from './commands.ts';
import { AGENT, parseCli, UsageError } from './context.ts';
import { SCHEDULE_USAGE } from './schedule-command.ts';

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
  gc                         remove finished runs' traces, events, transcripts and kept outputs from the store
                             [--older-than 30d] [--dry-run] (default age: AGENT_RETENTION_DAYS, else 30 days)
  ${SCHEDULE_USAGE}
  list                       list runs, newest first  [--status s1,s2] [--pending] [--tool name] [--limit n]
  agents                     list the agents and tools the workers offer, per task queue (from the store)
  serve                      the HTTP API, live events and the approvals inbox  [--port n] [--host h] [--no-worker]
  worker                     run a worker until Ctrl-C  [--scripted: play scripted:* models too, no key needed]
                             [--deployment name --build-id id [--versioning pinned|auto-upgrade]]
                             (Worker Versioning, opt-in; or AGENT_DEPLOYMENT_NAME, AGENT_BUILD_ID)
  build <runId>              the build (deployment version) a run is on, and how it moves
  upgrade <runId>            replay the run with this checkout's workflow code, then pin it to this build
                             [--deployment name] [--build-id id] (default: AGENT_DEPLOYMENT_NAME, AGENT_BUILD_ID)
  server                     run the embedded Temporal dev server until Ctrl-C
  reset                      copy examples/workspace afresh into the demo workspace (the runs change it)

run/start options:
  --model <name>             scripted:<name|path> or a provider model (default: $MODEL, or scripted:plan
                             without OPENAI_API_KEY/OPENAI_BASE_URL, gpt-4o-mini with them)
  --max-turns <n>  --max-budget <usd>  --max-wall-ms <ms>  --workspace <dir>  --fatal-tool-errors
  --tools <a,b,...>          the tools the model may use (default: all)
  --model-call activity|local  the model call as an activity (default) or a local activity (faster; queries
                             wait for the model, and a crash makes the open task's model calls again)
  --no-worker                do not start a worker in this process (use running ones)

serve: AGENT_HTTP_TOKENS="name:token:role[+role],…" (roles viewer, approver, operator) or AGENT_HTTP_TOKENS_FILE;
       without tokens it listens on 127.0.0.1 only. AGENT_HTTP_PORT (default 8787), AGENT_HTTP_HOST.

exit status: 0 done; 1 the verdict is no (run/result: the run did not complete; replay: a strict replay
             diverged from the recording) or an error; 2 a usage error

environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, OPENAI_BASE_URL, OPENAI_API_KEY, MODEL,
             AGENT_DATA_DIR, AGENT_RETENTION_DAYS, AGENT_WORKSPACE, AGENT_WORKSPACE_ROOTS, AGENT_TASK_QUEUE, AGENT_SCENARIO_DIRS,
             AGENT_SCRIPTED_MODELS=1 (a worker plays scripted:* models, as with --scripted),
             AGENT_ROLLING_DEPLOY=1 (a worker starts although live workers on its queue offer other tools)`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCli(argv);
  const [command, ...rest] = positionals;
  if (!command || values.help) {
    console.log(USAGE);
    return command || values.help ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  return run({ command, rest, values });
}

// Ctrl-C where no command handles it (one starting up, a list): exit through process.exit, so the 'exit'
// hooks run (an embedded dev server, in its own process group, is stopped), as Node's default would not.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) process.exit(130);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError || (error instanceof Error && error.name.endsWith('Error') && error.name !== 'Error') ? `${error.name}: ${(error as Error).message}` : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
