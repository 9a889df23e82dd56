/**
 * Finding runs: the visibility query a filter becomes, `npm run agent -- list`, and Temporal's own
 * `temporal workflow list --query 'AgentStatus="waiting_approval"'`, against the dev server (which
 * registers the agent search attributes at start).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from '../src/paths.ts';
import { runListQuery, wantedStatuses } from '../src/client/run-list.ts';
import { findTemporalCli } from '../src/temporal/temporal-cli.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

const run = promisify(execFile);
/** The test run's server (test/run.ts sets it; the harness uses it too). */
const address = () => {
  if (!process.env.TEMPORAL_ADDRESS) throw new Error('run through test/run.ts, which sets TEMPORAL_ADDRESS');
  return process.env.TEMPORAL_ADDRESS;
};

describe('the list query', () => {
  test('a status filter narrows by AgentStatus and keeps runs without it by ExecutionStatus; runs waiting for a person include child runs', () => {
    assert.equal(
      runListQuery('q', { status: ['waiting_approval'] }, { agentAttributes: true }),
      "WorkflowType = 'agentWorkflow' AND TaskQueue = 'q' AND (AgentStatus IN ('waiting_approval') OR (AgentStatus IS NULL AND ExecutionStatus = 'Running'))",
    );
    assert.match(runListQuery('q', { status: ['waiting_approval', 'running'] }, { agentAttributes: true }), /ParentWorkflowId IS NULL/);
    assert.equal(
      runListQuery('q', { status: ['completed', 'failed'] }, { agentAttributes: false }),
      "WorkflowType = 'agentWorkflow' AND TaskQueue = 'q' AND ParentWorkflowId IS NULL AND ExecutionStatus != 'Running'",
    );
    assert.equal(runListQuery('q', {}, { agentAttributes: true }), "WorkflowType = 'agentWorkflow' AND TaskQueue = 'q' AND ParentWorkflowId IS NULL");
    assert.match(runListQuery('q', { tool: 'delete_file' }, { agentAttributes: true }), /AgentPendingTool = 'delete_file'/);
  });

  test('pending and tool narrow the statuses; values that could break the query are refused', () => {
    assert.deepEqual(wantedStatuses({ pending: true }), ['waiting_approval', 'waiting_input']);
    assert.deepEqual(wantedStatuses({ pending: true, status: ['waiting_input', 'completed'] }), ['waiting_input']);
    assert.deepEqual(wantedStatuses({ tool: 'x' }), ['waiting_approval']);
    assert.equal(wantedStatuses({}), null);
    assert.throws(() => runListQuery("q' OR 1=1 --", {}, { agentAttributes: true }), /Cannot put/);
  });
});

describe('against the dev server', () => {
  let h: Harness;
  let waiting: string;
  let done: string;
  before(async () => {
    h = await startHarness('run-list');
    done = (await h.agents.startRun({ goal: 'Which log mentions a timeout?', model: 'scripted:plan', workspace: h.workspace })).runId;
    assert.equal((await h.agents.result(done)).status, 'completed');
    waiting = (await h.agents.startRun({ goal: 'Free some disk space.', model: 'scripted:delete-approval', workspace: h.workspace })).runId;
    await h.waitForState(waiting, (s) => s.status === 'waiting_approval', 'the approval request');
  });
  after(async () => {
    await h.agents.cancelRun(waiting, 'test over').catch(() => {});
    await h.close();
  });

  test('listRuns: by status, by pending tool, with what the run waits for', async () => {
    const runs = await eventually(async () => {
      const found = await h.agents.listRuns({ status: ['waiting_approval'] });
      return found.length ? found : undefined;
    }, 'the waiting run in visibility');
    assert.deepEqual(runs.map((r) => r.runId), [waiting]);
    assert.equal(runs[0]!.pending?.kind === 'approval' && runs[0]!.pending.toolName, 'delete_file');
    assert.equal(runs[0]!.goal, 'Free some disk space.');
    assert.deepEqual((await h.agents.listRuns({ tool: 'delete_file' })).map((r) => r.runId), [waiting]);
    // Visibility is eventually consistent: the completed run's close may reach it a moment later.
    const ids = async (filter: Parameters<typeof h.agents.listRuns>[0]) => (await h.agents.listRuns(filter)).map((r) => r.runId).sort().join(' ');
    await eventually(async () => (await ids({ status: ['completed'] })) === done, 'the completed run listed as completed');
    assert.equal(await ids({}), [waiting, done].sort().join(' '));
  });

  test('`npm run agent -- list --status waiting_approval` prints the run and what it waits for', async () => {
    const { stdout } = await run(process.execPath, [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'list', '--status', 'waiting_approval'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: address(), AGENT_TASK_QUEUE: h.taskQueue, AGENT_DATA_DIR: h.dataDir },
    });
    assert.match(stdout, new RegExp(`${waiting}\\s+waiting_approval`));
    assert.match(stdout, /approval of delete_file \(t2\.1, risk high\)/);
    assert.doesNotMatch(stdout, new RegExp(done));
  });

  test("Temporal's own CLI finds it: temporal workflow list --query 'AgentStatus=\"waiting_approval\"'", async () => {
    // npm test builds the CLI before any test runs, so it is always there.
    const cli = await findTemporalCli(() => {});
    assert.ok(cli, 'the Temporal CLI');
    const query = `AgentStatus="waiting_approval" AND TaskQueue="${h.taskQueue}"`;
    const listed = await eventually(async () => {
      const { stdout } = await run(cli, ['workflow', 'list', '--address', address(), '--query', query, '--output', 'json']);
      const rows = JSON.parse(stdout || '[]') as { execution: { workflowId: string } }[];
      return rows.length ? rows : undefined;
    }, 'the run in `temporal workflow list`');
    assert.deepEqual(listed.map((r) => r.execution.workflowId), [waiting]);
  });
});
