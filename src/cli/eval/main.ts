/**
 * `npm run eval -- <taskfile> [--json report.json] [--concurrency n] [--model m] [--api chat|responses]`: runs
 * the tasks on the embedded (or configured) Temporal server, prints the table, exits 1 when any task fails.
 * `--api responses` sends the scripted models' calls over the Responses API wire (`/v1/responses`) instead
 * of Chat Completions: the same tasks must pass on both.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir, PROJECT_ROOT } from '../../paths.ts';
import { openRuntime } from '../runtime.ts';
import { countOption, exitOnSignals, parseCommandLine, usageExit } from '../command-line.ts';
import { PROVIDER_KINDS } from '../../providers/providers-file.ts';
import { workspaceRoots } from '../../tools/workspace-roots.ts';
import { renderReport } from './report.ts';
import { runEval } from './run-eval.ts';
import { loadTaskFile, TaskFileError } from './task-file.ts';

const usage = 'usage: npm run eval -- <taskfile.json|yaml> [--json report.json] [--concurrency n] [--model m] [--api chat|responses]';
const { values, positionals } = parseCommandLine('eval', usage, {
  allowPositionals: true,
  options: { json: { type: 'string' }, concurrency: { type: 'string' }, model: { type: 'string' }, api: { type: 'string', default: 'chat' } },
});
const file = positionals[0];
if (!file) usageExit('eval', usage, 'name a task file (eval/tasks.json is the project\'s own)');
const api = PROVIDER_KINDS.find((kind) => kind === values.api);
if (!api) usageExit('eval', usage, `--api must be one of ${PROVIDER_KINDS.join(', ')} (the wire the scripted models go over), not "${values.api}"`);
const concurrency = countOption('eval', usage, 'concurrency', values.concurrency, 4);
const tasks = readTasks(path.resolve(file));
exitOnSignals();
// Each task's workspace is a copy under <data>/eval: that directory is a workspace root of this process.
// Tasks that replay a recording: the in-process scripted model may read recordings from their directories.
const recordingDirs = [...new Set(tasks.flatMap((t) => (t.recording ? [path.dirname(t.recording)] : [])))];
const rt = await openRuntime({ worker: true, scriptedModel: true, scriptedKind: api, recordingDirs, workspaceRoots: [...workspaceRoots(), path.join(dataDir(), 'eval')], log: (line) => console.error(line) });
let failed = 0;
try {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const report = await runEval(rt.agents, tasks, {
    model: values.model ?? process.env.MODEL ?? 'scripted:qa',
    concurrency,
    // Each task gets a fresh copy of the example workspace: a task that deletes must not change another's answer.
    workspaceFor: (task) => {
      const dir = path.join(rt.dataDir, 'eval', stamp, task.name.replace(/[^\w.-]+/g, '_'));
      mkdirSync(dir, { recursive: true });
      cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), dir, { recursive: true });
      return dir;
    },
    readTrace: (runId) => rt.store.readTrace(runId),
    onTaskDone: (t) => console.error(`  ${t.resultOk && t.trajectoryOk ? '✓' : '✗'} ${t.name} (${t.status}, ${t.wallMs} ms)`),
  });
  console.log(renderReport(report));
  if (values.json) {
    writeFileSync(values.json, JSON.stringify(report, null, 2) + '\n');
    console.error(`full report: ${values.json}`);
  }
  failed = report.totals.failed;
} finally {
  await rt.close();
}
process.exit(failed ? 1 : 0);

/** The task file's tasks; a missing or malformed file ends the command before anything has started (exit 2). */
function readTasks(taskFile: string) {
  if (!existsSync(taskFile)) return usageExit('eval', usage, `no task file at ${taskFile}`);
  try {
    return loadTaskFile(taskFile);
  } catch (error) {
    if (!(error instanceof TaskFileError)) throw error;
    console.error(`eval: ${error.message}`);
    return process.exit(2);
  }
}
