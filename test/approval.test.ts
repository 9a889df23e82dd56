/** Human approval as validated Workflow Updates (and signals), against the real server. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApprovalRefusedError } from '../src/client/client.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness('approval');
});
after(() => h.replayAndClose());

const GOAL = 'Free some disk space in the workspace.';
const accessLog = () => path.join(h.workspace, 'access.log');

async function startDeleteApproval() {
  const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace });
  const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
  assert.ok(state.pending?.kind === 'approval');
  return { runId, pending: state.pending };
}

describe('delete-approval', () => {
  test('approved: access.log is deleted, 3 turns, the answer says so', async () => {
    const { runId, pending } = await startDeleteApproval();
    assert.equal(pending.toolName, 'delete_file');
    assert.equal(pending.callKey, 't2.1', 'the harness keys the call: turn 2, first call');
    assert.equal(pending.toolCallId, 'c2');
    assert.equal(pending.risk, 'high');
    assert.deepEqual(pending.args, { path: 'access.log' });
    assert.match(pending.argsHash, /^[0-9a-f]{64}$/);
    assert.ok(existsSync(accessLog()), 'nothing deleted before the decision');

    const decision = await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: 'tester' });
    assert.equal(decision?.decision, 'approved');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    assert.equal(result.turns, 3);
    assert.equal(result.output, 'Deleted access.log to free space.');
    assert.ok(!existsSync(accessLog()));
    const types = (await h.trace(runId)).map((l) => l.type);
    assert.deepEqual(types, ['turn', 'tool_start', 'tool_result', 'turn', 'approval_required', 'approval_decided', 'tool_start', 'tool_result', 'turn', 'run_stopped']);
  });
});

describe('rejection', () => {
  test('with a reason: nothing deleted, the reason reached the model, no claim of deletion', async () => {
    const { runId, pending } = await freshDeleteApproval();
    await h.agents.reject(runId, { callKey: pending.callKey, reason: 'access.log is needed for the audit' });
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    assert.equal(result.turns, 3);
    assert.ok(existsSync(accessLog()), 'access.log still there');
    const toolMessage = (await h.agents.transcript(runId)).filter((m) => m.role === 'tool').at(-1)!;
    assert.match(toolMessage.content, /NOT run .*Reason: access\.log is needed for the audit/);
    assert.doesNotMatch(result.output!, /^Deleted/);
    assert.match(result.output!, /did not delete anything/);
  });

  test('without a reason: the model is told the user declined; no claim of deletion', async () => {
    const { runId, pending } = await freshDeleteApproval();
    await h.agents.reject(runId, { callKey: pending.callKey });
    const result = await h.agents.result(runId);
    assert.ok(existsSync(accessLog()));
    const toolMessage = (await h.agents.transcript(runId)).filter((m) => m.role === 'tool').at(-1)!;
    assert.match(toolMessage.content, /NOT run and nothing was changed: the user declined\./);
    assert.equal(result.output, 'I did not delete anything: you declined the deletion.');
  });
});

test('no worker needs to run while a run waits: stop it, approve, start one, the run finishes', async () => {
  const { runId, pending } = await freshDeleteApproval();
  await h.stopWorker();
  // The update is accepted by the server and answered once a worker is back.
  const approval = h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash });
  await new Promise((r) => setTimeout(r, 500));
  await h.startWorker();
  assert.equal((await approval)?.decision, 'approved');
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed');
  assert.ok(!existsSync(accessLog()));
});

test("a closed run's state is readable with no worker running", async () => {
  const result = await h.run({ goal: `${GOAL} (closed)`, model: 'scripted:plan' });
  assert.equal(result.status, 'completed');
  await h.stopWorker();
  try {
    const state = await h.agents.getState(result.runId);
    assert.deepEqual(
      { status: state.status, reason: state.reason, turns: state.turns, toolRuns: state.toolRuns, costUsd: state.costUsd, output: state.output },
      { status: 'completed', reason: 'final_answer', turns: 3, toolRuns: 2, costUsd: result.costUsd, output: result.output },
    );
    assert.deepEqual(await h.agents.result(result.runId), result);
  } finally {
    await h.startWorker();
  }
});

test('argsHash is the SHA-256 of the canonical JSON of the exact arguments', async () => {
  const { runId } = await h.agents.startRun({ goal: `${GOAL} (hash)`, model: scenario('hash-args.ts'), workspace: h.workspace, policy: { mediumQuota: 0 } });
  const { pending } = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the write to ask');
  assert.ok(pending?.kind === 'approval');
  // The model sent {"path", "content"}; canonical JSON sorts keys at every level, has no spaces, and is
  // hashed as UTF-8. Written out here by hand, not by the harness's code:
  const canonical = '{"content":"café ✓\\n\\"quoted\\"","path":"résumé.txt"}';
  assert.deepEqual(JSON.parse(canonical), pending.args, 'the canonical text is of the same arguments');
  assert.equal(pending.argsHash, createHash('sha256').update(canonical, 'utf8').digest('hex'));
  assert.notEqual(pending.argsHash, createHash('sha256').update(JSON.stringify({ path: 'résumé.txt', content: 'café ✓\n"quoted"' })).digest('hex'), 'the model\'s key order would hash differently');
  assert.equal(canonicalText(pending.args), canonical);
  await h.agents.reject(runId, { callKey: pending.callKey });
  assert.equal((await h.agents.result(runId)).status, 'completed');
});

/** Canonical JSON, as the README defines it: keys sorted at every level, no whitespace. */
function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

test('a signal approval sent while no worker runs is not lost', async () => {
  const { runId, pending } = await freshDeleteApproval();
  await h.stopWorker();
  await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash }, { wait: false });
  await h.startWorker();
  const result = await h.agents.result(runId);
  assert.equal(result.output, 'Deleted access.log to free space.');
});

test('unknown callKey, wrong argsHash and a second decision are refused with a clear error; the run goes on', async () => {
  const { runId, pending } = await freshDeleteApproval();
  await assert.rejects(h.agents.approve(runId, { callKey: 'nope', argsHash: pending.argsHash }), (e: unknown) => {
    assert.ok(e instanceof ApprovalRefusedError);
    assert.match(e.message, /No approval is pending for call "nope"; the pending call is "t2.1" \(delete_file\)/);
    return true;
  });
  await assert.rejects(h.agents.approve(runId, { callKey: pending.callKey, argsHash: '0'.repeat(64) }), /argsHash does not match the arguments of call "t2.1"/);
  let state = await h.agents.getState(runId);
  assert.equal(state.status, 'waiting_approval', 'run untouched');
  assert.equal(state.pending?.callKey, 't2.1');

  await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash });
  await assert.rejects(h.agents.reject(runId, { callKey: pending.callKey }), /Call "t2.1" was already approved; a decision cannot be changed/);
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed');
  assert.equal(result.output, 'Deleted access.log to free space.');
  state = await h.agents.getState(runId);
  assert.equal(state.pending, null);
});

test('a stale signal is recorded as refused and changes nothing', async () => {
  const { runId, pending } = await freshDeleteApproval();
  await h.agents.approve(runId, { callKey: pending.callKey, argsHash: 'f'.repeat(64) }, { wait: false });
  const refused = await (async () => {
    for (let i = 0; i < 100; i++) {
      const line = (await h.trace(runId)).find((l) => l.type === 'approval_refused');
      if (line) return line;
      await new Promise((r) => setTimeout(r, 50));
    }
    return undefined;
  })();
  assert.ok(refused?.type === 'approval_refused');
  assert.match(refused.error, /argsHash does not match/);
  assert.equal((await h.agents.getState(runId)).status, 'waiting_approval');
  await h.agents.reject(runId, { callKey: pending.callKey });
  assert.equal((await h.agents.result(runId)).status, 'completed');
  assert.ok(existsSync(accessLog()));
});

test('several calls in one reply are decided one by one, in order', async () => {
  const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('two-deletes.ts'), workspace: h.workspace });
  const first = await h.waitForState(runId, (s) => s.pending?.kind === 'approval' && s.pending.toolCallId === 'x1', 'the first approval');
  assert.deepEqual(first.pending?.kind === 'approval' && first.pending.args, { path: 'access.log' });
  await h.agents.approve(runId);
  const second = await h.waitForState(runId, (s) => s.pending?.kind === 'approval' && s.pending.toolCallId === 'x2', 'the second approval');
  assert.deepEqual(second.pending?.kind === 'approval' && second.pending.args, { path: 'notes.txt' });
  await h.agents.reject(runId, { reason: 'keep the notes' });
  const result = await h.agents.result(runId);
  assert.match(result.output!, /^Deleted access\.log\.\nNot done: delete_file\({"path":"notes.txt"}\) was NOT run/);
  assert.ok(!existsSync(accessLog()));
  assert.ok(existsSync(path.join(h.workspace, 'notes.txt')));
  restoreAccessLog();
});

test('the same side-effect call twice in one reply: each is asked for and runs, neither shares the other\'s result', async () => {
  const outbox = () => (existsSync(path.join(h.workspace, 'outbox')) ? readdirSync(path.join(h.workspace, 'outbox')).length : 0);
  const sentBefore = outbox();
  const { runId } = await h.agents.startRun({ goal: 'Remind bob twice.', model: scenario('send-twice.ts'), workspace: h.workspace });
  for (const toolCallId of ['r1', 'r2']) {
    const state = await h.waitForState(runId, (s) => s.pending?.kind === 'approval' && s.pending.toolCallId === toolCallId, `the approval of ${toolCallId}`);
    assert.ok(state.pending?.kind === 'approval');
    await h.agents.approve(runId, { callKey: state.pending.callKey, argsHash: state.pending.argsHash });
  }
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed');
  assert.equal(result.toolRuns, 2);
  assert.deepEqual(result.receipt.map((e) => [e.callKey, e.outcome]), [['t1.1', 'done'], ['t1.2', 'done']]);
  assert.equal(outbox(), sentBefore + 2, 'two messages, one per call');
  assert.ok(!(await h.trace(runId)).some((l) => l.type === 'tool_deduplicated'));
});

test('an approval timeout ends the wait as a rejection with a reason', async () => {
  restoreAccessLog();
  const result = await h.run({ goal: GOAL, model: 'scripted:delete-approval', policy: { approvalTimeoutMs: 300 } });
  assert.equal(result.status, 'completed');
  assert.equal(result.output, 'I did not delete anything: you declined because "no decision in 300 ms".');
  assert.ok(existsSync(accessLog()));
});

/** Each test starts from a workspace that has access.log. */
async function freshDeleteApproval() {
  restoreAccessLog();
  return startDeleteApproval();
}

function restoreAccessLog() {
  if (!existsSync(accessLog())) writeFileSync(accessLog(), '127.0.0.1 - - "GET /health" 200\n');
}
