/**
 * Safety holes found from outside, each closed for good: approvals keyed by the harness (providers reuse
 * ids), bounded payloads, no code loading through the scripted model, confined workspaces, the README's
 * service example and `npm run worker` as people run them, and safe tool defaults.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AgentClient, AnswerRefusedError } from '../src/client/client.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { InvalidRunInputError } from '../src/client/run-input.ts';
import { contractsByName } from '../src/tools/contracts.ts';
import { defineToolContract } from '../src/tools/define-tool.ts';
import { WorkspaceRefusedError } from '../src/tools/workspace-roots.ts';
import { AGENT_WORKFLOW_TYPE } from '../src/wire/messages.ts';
import { fitTurnBudget, truncateForModel } from '../src/wire/payload-bounds.ts';
import { decide } from '../workflows/policy.ts';
import type { RunResult } from '../src/wire/types.ts';
import { groupAlive } from './helpers/cli-process.ts';
import { eventually } from './helpers/eventually.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { z } from 'zod';
import { WORKER_NODE_ARGS } from '../src/worker/node-args.ts';

let h: Harness;
before(async () => {
  h = await startHarness('safety');
});
after(() => h.replayAndClose());

const file = (name: string) => path.join(h.workspace, name);

describe('approvals are keyed by the harness, never by the provider id', () => {
  for (const how of ['across turns', 'one reply', 'empty']) {
    test(`a reused provider id (${how}) does not let the second deletion ride on the first approval`, async () => {
      writeFileSync(file('a.log'), 'a\n');
      writeFileSync(file('b.log'), 'b\n');
      const { runId } = await h.agents.startRun({ goal: `delete two logs, ids reused ${how}`, model: scenario('reused-ids.ts'), workspace: h.workspace });
      const first = await h.waitForState(runId, (s) => s.pending?.kind === 'approval', 'the first approval');
      assert.ok(first.pending?.kind === 'approval');
      assert.deepEqual(first.pending.args, { path: 'a.log' });
      await h.agents.approve(runId, { callKey: first.pending.callKey, argsHash: first.pending.argsHash });
      // The second call must wait for its own decision, under its own key.
      const second = await h.waitForState(runId, (s) => s.pending?.kind === 'approval' && s.pending.callKey !== first.pending!.callKey, 'the second approval');
      assert.ok(second.pending?.kind === 'approval');
      assert.deepEqual(second.pending.args, { path: 'b.log' });
      assert.equal(second.pending.toolCallId, first.pending.toolCallId, 'the provider really reused the id');
      assert.ok(existsSync(file('b.log')), 'nothing ran without a decision');
      await assert.rejects(h.agents.approve(runId, { callKey: first.pending.callKey, argsHash: second.pending.argsHash }), /already approved/);
      await h.agents.reject(runId, { callKey: second.pending.callKey, reason: 'keep b.log' });
      const result = await h.agents.result(runId);
      assert.equal(result.status, 'completed');
      assert.ok(!existsSync(file('a.log')), 'the approved deletion ran');
      assert.ok(existsSync(file('b.log')), 'the rejected deletion never ran');
      const keys = (await h.trace(runId)).filter((l) => l.type === 'approval_required').map((l) => l.callKey);
      assert.equal(new Set(keys).size, 2, 'two approvals under two keys');
      const ledgerKeys = (await h.trace(runId)).flatMap((l) => (l.type === 'tool_start' ? [`${runId}:${l.callKey}`] : []));
      assert.deepEqual(ledgerKeys, [`${runId}:${first.pending.callKey}`], 'one tool run, idempotency key from the harness key');
    });
  }
});

describe('payloads stay bounded', () => {
  test('a 3 MiB tool output is cut for the model with a note; the whole output is kept, its reference traced', { timeout: 60_000 }, async () => {
    const big = 'log line with some text\n'.repeat(131_072); // 3,145,728 characters
    writeFileSync(file('big.log'), big);
    try {
      const result = await h.run({ goal: 'Read big.log', model: scenario('read-big.ts') });
      assert.equal(result.status, 'completed');
      const tool = (await h.agents.transcript(result.runId)).find((m) => m.role === 'tool')!;
      assert.ok(tool.content.startsWith(big.slice(0, 65_536)));
      assert.match(tool.content, /… truncated: 3,145,728 characters, first 65,536 shown; the full output is kept as output:[0-9a-f]{64}\.$/);
      const line = (await h.trace(result.runId)).find((l) => l.type === 'tool_result');
      assert.ok(line?.type === 'tool_result' && line.outputRef && line.outputChars === 3_145_728);
      assert.equal(await h.store.getOutput(line.outputRef), big, 'the whole output is kept in the store');
    } finally {
      rmSync(file('big.log'));
    }
  });

  test('a model reply over the limit ends the run failed with the reason', async () => {
    const result = await h.run({ goal: 'Say a lot', model: scenario('huge-reply.ts') });
    assert.equal(result.status, 'failed');
    assert.match(result.error!, /The model's reply has 300,0\d\d characters .*at most 262,144/);
  });

  test('a goal, an answer or a reason over its limit is refused with a clear error', async () => {
    await assert.rejects(h.agents.startRun({ goal: 'g'.repeat(40_000), model: 'scripted:plan' }), (e: unknown) => e instanceof InvalidRunInputError && /goal is longer than 32768 characters/.test(e.message));
    const { runId } = await h.agents.startRun({ goal: 'ask', model: 'scripted:ask-user', workspace: h.workspace });
    await h.waitForState(runId, (s) => s.status === 'waiting_input', 'the question');
    await assert.rejects(h.agents.answer(runId, 'n'.repeat(20_000)), (e: unknown) => e instanceof AnswerRefusedError && /at most 16384 are accepted/.test(e.message));
    await h.agents.answer(runId, 'notes.txt');
    assert.equal((await h.agents.result(runId)).status, 'completed');
  });

  test('the tool messages of one turn are fitted under one budget', () => {
    const fitted = fitTurnBudget(['small', 'x'.repeat(800_000), 'y'.repeat(800_000)], 1_000_000);
    assert.equal(fitted[0], 'small', 'what fits a fair share stays whole');
    assert.ok(fitted.reduce((n, c) => n + c.length, 0) <= 1_000_000);
    assert.match(fitted[1]!, /… truncated: 800,000 characters, first \d{3},\d{3} shown\.$/);
    assert.equal(truncateForModel('short', 10), 'short');
  });
});

describe('the scripted model loads no code it was not allowed to', () => {
  test('a scenario path outside the configured directories is refused, and the module never runs', async () => {
    const marker = path.join(tmpdir(), `scenario-ran-${process.pid}`);
    const evil = path.join(tmpdir(), `evil-scenario-${process.pid}.mjs`);
    writeFileSync(evil, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'ran'); export default () => ({ content: 'owned' });\n`);
    try {
      const result = await h.run({ goal: 'x', model: `scripted:${evil}` });
      assert.equal(result.status, 'failed');
      assert.match(result.error!, /not under a scenario directory this server may load from/);
      assert.ok(!existsSync(marker), 'the module was never imported');
    } finally {
      rmSync(evil, { force: true });
      rmSync(marker, { force: true });
    }
  });
});

describe('workspaces are confined to the configured roots', () => {
  test('the client refuses a workspace outside its roots before starting anything', async () => {
    await assert.rejects(h.agents.startRun({ goal: 'read the host', model: scenario('read-host-file.ts'), workspace: '/' }, { runId: 'refused-run' }), WorkspaceRefusedError);
    await assert.rejects(h.temporal.workflow.getHandle('refused-run').describe(), { name: 'WorkflowNotFoundError' });
  });

  test('a run started around the client is refused by the worker and ends failed', async () => {
    const runId = `around-${Date.now()}`;
    await h.temporal.workflow.start(AGENT_WORKFLOW_TYPE, { workflowId: runId, taskQueue: h.taskQueue, args: [{ goal: 'read the host', model: scenario('read-host-file.ts'), workspace: '/' }] });
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'failed');
    assert.equal(result.reason, 'workspace_refused');
    assert.match(result.error!, /Workspace \/ is outside the allowed workspace roots/);
    const transcript = await h.agents.getState(runId);
    assert.equal(transcript.toolRuns, 1, 'the call was attempted and refused');
    assert.ok(!(await h.trace(runId)).some((l) => l.type === 'tool_result' && l.ok), 'no host file was read');
  });
});

test("docs/cli.md's service example runs as written", async () => {
  const example = readFileSync(path.join(PROJECT_ROOT, 'examples', 'service.ts'), 'utf8');
  assert.ok(readFileSync(path.join(PROJECT_ROOT, 'docs', 'cli.md'), 'utf8').includes(example.replace("'../src/client/client.ts'", "'./src/client/client.ts'").trim()), 'docs/cli.md shows examples/service.ts');
  writeFileSync(file('access.log'), 'old\n');
  const { code, stdout, stderr } = await runNode([path.join(PROJECT_ROOT, 'examples', 'service.ts')], {
    TEMPORAL_ADDRESS: address(),
    AGENT_TASK_QUEUE: h.taskQueue,
    MODEL: 'scripted:delete-approval',
  });
  assert.equal(code, 0, stderr);
  assert.equal(stdout.trim(), 'completed: Deleted access.log to free space.');
});

test('`npm run worker` starts a production worker that polls, refuses scripted models and stops on SIGTERM', { timeout: 120_000 }, async (t) => {
  const taskQueue = `${h.taskQueue}-npm`;
  const dataDir = path.join(h.dataDir, 'npm-worker');
  const child = spawn('npm', ['run', 'worker', '--silent'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: address(), AGENT_TASK_QUEUE: taskQueue, AGENT_DATA_DIR: dataDir, AGENT_SCRIPTED_MODEL_URL: '', TEMPORAL_LOG_LEVEL: 'ERROR' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as a terminal or a service manager runs it: SIGTERM reaches npm and the worker.
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(code === 0 ? 'exit 0' : `${code} ${signal}`)));
  // A failed assertion must not leave the worker polling (the test file would never end).
  t.after(() => {
    if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
  });
  await eventually(() => stderr.includes(`Worker polling task queue "${taskQueue}"`) || (child.exitCode !== null && Promise.reject(new Error(stderr))), 'the worker to poll', 90_000);
  // With the production flags (src/worker/node-args.ts): V8's heap limit is their old space plus the young generation, not its 4 GiB default here.
  const oldSpaceMiB = Number(/--max-old-space-size=(\d+)/.exec(WORKER_NODE_ARGS.join(' '))?.[1]);
  const heapMiB = Number(/\(heap limit (\d+) MiB\)/.exec(stderr)?.[1]);
  assert.ok(heapMiB >= oldSpaceMiB && heapMiB < oldSpaceMiB + 200, `heap limit ${heapMiB} MiB under --max-old-space-size=${oldSpaceMiB}`);
  const agents = new AgentClient(h.temporal, { taskQueue });
  const { runId } = await agents.startRun({ goal: 'x', model: 'scripted:plan' });
  const result: RunResult = await agents.result(runId);
  assert.equal(result.status, 'failed');
  assert.match(result.error!, /is a scripted test model, and this worker does not serve scripted models/);
  process.kill(-child.pid!, 'SIGTERM');
  // npm may itself end by the signal; the worker's own words say it stopped, and the group is gone.
  assert.match(await exited, /^(exit 0|null SIGTERM)$/);
  await eventually(() => stderr.includes('Worker stopping'), 'the worker to say it stops');
  await eventually(() => !groupAlive(child.pid!), 'every process of the group to exit');
});

/** `npm run worker`'s command with one setting of the environment: it must refuse it and exit before polling. */
async function workerRefuses(name: string, setting: Record<string, string>, error: RegExp) {
  const { code, stderr } = await runNode([path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'worker'], {
    TEMPORAL_ADDRESS: address(),
    AGENT_TASK_QUEUE: `${h.taskQueue}-${name}`,
    AGENT_DATA_DIR: path.join(h.dataDir, name),
    TEMPORAL_LOG_LEVEL: 'ERROR',
    ...setting,
  });
  assert.equal(code, 1, stderr);
  assert.match(stderr, error);
  assert.doesNotMatch(stderr, /Worker polling/);
}

test('a worker given an unusable AGENT_MAX_CACHED_RUNS says so and exits, before polling anything', async () => {
  await workerRefuses('bad-cache', { AGENT_MAX_CACHED_RUNS: 'lots' }, /^WorkerConfigError: AGENT_MAX_CACHED_RUNS is "lots": give a whole number of runs/m);
});

test('a worker asked for more workflow tasks at once than the runs it caches says so and exits', async () => {
  await workerRefuses('bad-tasks', { AGENT_MAX_WORKFLOW_TASKS: '500' }, /^WorkerConfigError: AGENT_MAX_WORKFLOW_TASKS is 500, more than the 300 runs the worker caches: raise AGENT_MAX_CACHED_RUNS too/m);
});

test('a tool contract that states no risk has side effects and asks for approval', () => {
  const contract = defineToolContract({ name: 'publish_post', description: 'Publishes a post.', input: z.object({ text: z.string() }), output: z.string() });
  assert.equal(contract.readOnly, false, 'never deduplicated');
  assert.equal(contract.risk, 'high');
  assert.equal(decide(contract, 0, undefined).action, 'ask');
  assert.equal(contract.maxOutputChars, 65_536);
  for (const builtin of contractsByName.values()) assert.ok(builtin.maxOutputChars > 0);
});

function address(): string {
  const value = process.env.TEMPORAL_ADDRESS;
  if (!value) throw new Error('run through test/run.ts (it starts the Temporal server)');
  return value;
}

function runNode(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
