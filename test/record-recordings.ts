/**
 * Refreshes the recorded regression suite: `npx node test/record-recordings.ts` runs a set of scripted runs
 * (each in a fresh copy of examples/workspace, as the eval gives every task), records each into
 * eval/recorded/<name>.json and writes eval/recorded/tasks.json naming them — what
 * `npm run agent -- record <runId> --as-task eval/recorded/tasks.json` does one run at a time.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/paths.ts';
import { recordCommand } from '../src/recording/commands.ts';
import type { RunInput } from '../src/wire/run-input.ts';
import { scenario, startHarness } from './helpers/harness.ts';

const dir = path.join(PROJECT_ROOT, 'eval', 'recorded');
const taskFile = path.join(dir, 'tasks.json');
rmSync(taskFile, { force: true });
const h = await startHarness('record-suite');
let n = 0;

async function recordOne(name: string, input: Omit<RunInput, 'workspace'>, decide: (runId: string) => Promise<void> = async () => {}) {
  const workspace = path.join(h.dataDir, `ws-${++n}`);
  cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
  const { runId } = await h.agents.startRun({ ...input, workspace });
  await decide(runId);
  await h.agents.result(runId);
  for (const line of await recordCommand(h, runId, { out: path.join(dir, `${name}.json`), asTask: taskFile })) console.log(line);
}

try {
  const goal = 'Which log file mentions a timeout?';
  await recordOne('plan', { goal, model: 'scripted:plan', tools: ['list_files', 'read_file'] });
  await recordOne('recover', { goal, model: 'scripted:recover' });
  await recordOne('parallel-scans', { goal: 'Scan the files.', model: 'scripted:parallel' });
  await recordOne('delete-approved', { goal: 'Free some disk space.', model: 'scripted:delete-approval' }, async (runId) => {
    const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'approval');
    if (state.pending?.kind === 'approval') await h.agents.approve(runId, { callKey: state.pending.callKey, argsHash: state.pending.argsHash, by: 'ops' });
  });
  await recordOne('delete-rejected', { goal: 'Free some disk space.', model: 'scripted:delete-approval' }, async (runId) => {
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'approval');
    await h.agents.reject(runId, { reason: 'access.log is needed for the audit', by: 'ops' });
  });
  await recordOne('ask-user', { goal: 'Read the file I pick.', model: 'scripted:ask-user' }, async (runId) => {
    await h.waitForState(runId, (s) => s.status === 'waiting_input', 'question');
    await h.agents.answer(runId, 'notes.txt', { by: 'ops' });
  });
  await recordOne('research-continued', { goal, model: 'scripted:research', continueAsNewEveryTurns: 1 });
  await recordOne('three-writes', { goal: 'Write three drafts.', model: scenario('three-writes.ts') });
  // The task names carry run ids that change with every refresh: name them after their files instead.
  const tasks = JSON.parse(readFileSync(taskFile, 'utf8')) as { tasks: { name: string; recording: string }[] };
  for (const task of tasks.tasks) task.name = `recorded ${path.basename(task.recording, '.json')}`;
  writeFileSync(taskFile, JSON.stringify(tasks, null, 2) + '\n');
} finally {
  await h.close();
}
