/**
 * Records the histories of a set of runs as replay fixtures: `node test/record-histories.ts <label>`
 * writes test/fixtures/histories/<label>/*.binpb (History protobufs). Fixtures from earlier versions stay in the repo, and
 * test/replay.test.ts replays every one against the current workflow code, so an incompatible change
 * fails CI. Record a new label whenever the workflow changes (see the README's upgrade procedure).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import proto from '@temporalio/proto';
import { PROJECT_ROOT } from '../src/paths.ts';
import { eventually } from './helpers/eventually.ts';
import { scenario, startHarness } from './helpers/harness.ts';

const label = process.argv[2];
if (!label) throw new Error('usage: node test/record-histories.ts <label>');
const dir = path.join(PROJECT_ROOT, 'test', 'fixtures', 'histories', label);
mkdirSync(dir, { recursive: true });

const h = await startHarness('record');
const goal = 'Which log file mentions a timeout?';
const recorded: Record<string, string> = {};
try {
  recorded.plan = (await h.run({ goal, model: 'scripted:plan' })).runId;
  recorded.recover = (await h.run({ goal, model: 'scripted:recover' })).runId;
  recorded['read-twice'] = (await h.run({ goal, model: 'scripted:read-twice' })).runId;
  recorded.parallel = (await h.run({ goal, model: 'scripted:parallel' })).runId;
  recorded.research = (await h.run({ goal, model: 'scripted:research' })).runId;
  recorded['budget'] = (await h.run({ goal, model: 'scripted:runaway', limits: { maxBudgetUsd: 0.004 } })).runId;

  recorded['no-progress'] = (await h.run({ goal, model: 'scripted:runaway' })).runId;
  recorded['continue-as-new'] = (await h.run({ goal, model: 'scripted:runaway', limits: { maxTurns: 6, maxRepeatedCalls: 0, maxStaleTurns: 0 }, continueAsNewEveryTurns: 2 })).runId;
  recorded['wall-time'] = (await h.run({ goal, model: scenario('slow.ts'), limits: { maxWallMs: 500 } })).runId;

  const asking = await h.agents.startRun({ goal, model: 'scripted:ask-user', workspace: h.workspace });
  await h.waitForState(asking.runId, (s) => s.status === 'waiting_input', 'question');
  await h.agents.answer(asking.runId, 'notes.txt');
  await h.agents.result(asking.runId);
  recorded['ask-user'] = asking.runId;

  const approval = await h.agents.startRun({ goal, model: 'scripted:delete-approval', workspace: h.workspace });
  await h.waitForState(approval.runId, (s) => s.status === 'waiting_approval', 'approval');
  await h.agents.approve(approval.runId);
  await h.agents.result(approval.runId);
  recorded['delete-approved'] = approval.runId;

  const rejected = await h.agents.startRun({ goal, model: 'scripted:delete-approval', workspace: h.workspace });
  await h.waitForState(rejected.runId, (s) => s.status === 'waiting_approval', 'approval');
  await h.agents.reject(rejected.runId, { reason: 'keep it' });
  await h.agents.result(rejected.runId);
  recorded['delete-rejected'] = rejected.runId;

  const cancelled = await h.agents.startRun({ goal, model: scenario('slow.ts'), workspace: h.workspace });
  await eventually(() => h.scripted.requests.some((r) => r.scenario.endsWith('slow.ts') && r.messages[1]?.content === goal), 'slow model call');
  await h.agents.cancelRun(cancelled.runId, 'user pressed Stop');
  await h.agents.result(cancelled.runId);
  recorded.cancelled = cancelled.runId;

  for (const [name, runId] of Object.entries(recorded)) {
    const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
    // The file name keeps the workflow id: replay needs it (child ids derive from it).
    writeFileSync(path.join(dir, `${name}@${runId}.binpb`), proto.temporal.api.history.v1.History.encode(history).finish());
  }
  console.log(`recorded ${Object.keys(recorded).length} histories in ${path.relative(PROJECT_ROOT, dir)}`);
} finally {
  await h.close();
}
