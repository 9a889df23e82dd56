/** Deduplication, idempotency, the extreme/medium policy and redaction, against the real server. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { agentDataConverter } from '../src/client/payload-codec.ts';
import type { Tool } from '../src/tools/define-tool.ts';
import { implementTool } from '../src/tools/define-tool.ts';
import { RetryableToolError } from '../src/tools/errors.ts';
import { builtinTools } from '../src/tools/registry.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { allPayloads, historyBytes } from './helpers/histories.ts';

const GOAL = 'Tidy the workspace.';

describe('with the built-in tools', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('tools');
  });
  after(() => h.replayAndClose());

  test('an identical read-only call runs once: two tool calls, one tool run', async () => {
    const result = await h.run({ goal: GOAL, model: 'scripted:read-twice' });
    assert.equal(result.status, 'completed');
    assert.equal(result.toolCalls, 2);
    assert.equal(result.toolRuns, 1);
    const types = (await h.trace(result.runId)).map((l) => l.type);
    assert.equal(types.filter((t) => t === 'tool_start').length, 1);
    assert.equal(types.filter((t) => t === 'tool_deduplicated').length, 1);
    const tools = (await h.agents.transcript(result.runId)).filter((m) => m.role === 'tool');
    assert.ok(tools[1]!.content.startsWith(tools[0]!.content), 'the same result, not a second run');
    assert.match(tools[1]!.content, /\[harness\] You have called read_file with the same arguments 2 times in a row/);
  });

  test('the same deletion asked twice runs twice, each once per idempotency key', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-twice', workspace: h.workspace });
    for (const toolCallId of ['d1', 'd2']) {
      await h.waitForState(runId, (s) => s.pending?.toolCallId === toolCallId, `approval of ${toolCallId}`);
      await h.agents.approve(runId);
    }
    const result = await h.agents.result(runId);
    assert.equal(result.toolRuns, 2);
    assert.match(result.output!, /Deleted access\.log\. \| access\.log did not exist; nothing was deleted\./);
    const entries = await Promise.all(['t1.1', 't2.1'].map((callKey) => h.store.lookupEffect(`${runId}:${callKey}`)));
    assert.deepEqual(entries.map((e) => e?.phase), ['done', 'done'], 'one ledger entry per call, keyed by the harness: <runId>:<callKey>');
    writeFileSync(path.join(h.workspace, 'access.log'), 'restored\n');
  });

  test('an extreme tool is denied by default and never runs', async () => {
    const result = await h.run({ goal: GOAL, model: scenario('run-command.ts') });
    assert.equal(result.status, 'completed');
    assert.equal(result.toolRuns, 0);
    assert.match(result.output!, /^Not done: run_command was denied by policy \(run_command is an extreme-risk tool/);
    assert.ok(!existsSync(path.join(h.workspace, 'pwned.txt')));
    assert.ok((await h.trace(result.runId)).some((l) => l.type === 'tool_denied'));
  });

  test('an extreme tool allowed by the run configuration runs', async () => {
    const result = await h.run({ goal: GOAL, model: scenario('run-command.ts'), policy: { allowExtreme: ['run_command'] } });
    assert.equal(result.toolRuns, 1);
    assert.equal(result.output, 'wrote it\n');
    assert.ok(existsSync(path.join(h.workspace, 'pwned.txt')));
  });

  test('medium-risk tools run within the quota, then ask', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('write-twice.ts'), workspace: h.workspace, policy: { mediumQuota: 1 } });
    const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the second write to ask');
    assert.ok(state.pending?.kind === 'approval');
    assert.equal(state.pending.toolCallId, 'w2');
    assert.match(state.pending.why, /quota of 1 medium-risk tool runs is used up/);
    assert.ok(existsSync(path.join(h.workspace, 'draft1.txt')));
    assert.ok(!existsSync(path.join(h.workspace, 'draft2.txt')));
    await h.agents.approve(runId);
    const result = await h.agents.result(runId);
    assert.equal(result.toolRuns, 2);
    assert.ok(existsSync(path.join(h.workspace, 'draft2.txt')));
  });

  test('a redacted argument is masked in the state, the transcript query and the trace', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('send-message.ts'), workspace: h.workspace });
    const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the send approval');
    assert.deepEqual(state.pending?.kind === 'approval' && state.pending.args, { to: '[redacted]', text: 'The nightly job timed out.' });
    await h.agents.approve(runId);
    const result = await h.agents.result(runId);
    assert.equal(result.output, 'Message sent (26 characters).');
    const traceText = JSON.stringify(await h.trace(runId));
    assert.doesNotMatch(traceText, /alice\.secret/);
    assert.match(traceText, /\[redacted\]/);
    assert.doesNotMatch(JSON.stringify(await h.agents.transcript(runId)), /alice\.secret/);
    assert.doesNotMatch(JSON.stringify(await h.agents.getState(runId)), /alice\.secret/);
    // Without payload encryption the history holds the model's own message, and so the address (README):
    // the same search that finds nothing in an encrypted history finds it here.
    const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
    assert.ok(historyBytes(history).includes(SECRET), 'the address is in the history in plain text');
  });
});

const SECRET = 'alice.secret';

test('with AGENT_PAYLOAD_KEY encryption, the Temporal history holds no redacted value', async () => {
  const dataConverter = agentDataConverter('test secret')!;
  const codec = dataConverter.payloadCodecs![0]!;
  const h = await startHarness('codec', { dataConverter });
  try {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('send-message.ts'), workspace: h.workspace });
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the send approval');
    await h.agents.approve(runId);
    assert.equal((await h.agents.result(runId)).status, 'completed');
    const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
    // The history as the server keeps it, every field's bytes, payload data as stored: no plain text.
    assert.ok(!historyBytes(history).includes(SECRET), 'no plain-text address anywhere in the history');
    // Every payload the harness wrote is ciphertext. Left in clear, by design: search attributes (status,
    // turns, cost, model, pending tool name: for listings) and the SDK's own marker data (patch ids, local
    // activity bookkeeping); the byte search above covers them too.
    const clearByDesign = /searchAttributes|\.details\.(patch-data|data)\b/;
    const all = allPayloads(history);
    const ours = all.filter(({ path }) => !clearByDesign.test(path));
    assert.ok(ours.length > 5, `payloads found: ${ours.length}`);
    for (const { path, payload } of ours) assert.equal(Buffer.from(payload.metadata?.encoding ?? []).toString(), 'binary/encrypted', `${path} is encrypted`);
    for (const { payload } of all) assert.ok(!Buffer.from(payload.data ?? []).includes(SECRET));
    // Decrypted with the key, the same payloads do hold it (the model's reply, the tool's input): the search
    // above would have found it, had it been there.
    const plain = await codec.decode(ours.map(({ payload }) => ({ metadata: payload.metadata ?? {}, data: payload.data ?? new Uint8Array() })));
    assert.ok(plain.some((p) => Buffer.from(p.data ?? []).includes(SECRET)), 'the decrypted payloads carry the address');
    await h.replayAll();
  } finally {
    await h.close();
  }
});

test('a delete_file activity that fails after deleting is retried and does not delete twice', async () => {
  let attempts = 0;
  const keys: string[] = [];
  const h = await startHarness('fault', {
    tools: (dataDir) =>
      builtinTools(dataDir).map((tool): Tool =>
        tool.name !== 'delete_file'
          ? tool
          : implementTool(tool, async (args, ctx) => {
              keys.push(ctx.idempotencyKey);
              const outcome = await tool.run(args, ctx);
              if (++attempts === 1) {
                // The world changes and the worker "fails" right after the effect: the retry must not delete again.
                writeFileSync(path.join(ctx.workspace, 'access.log'), 'recreated after the first deletion\n');
                throw new RetryableToolError('injected fault after deleting');
              }
              return outcome;
            }),
      ),
  });
  try {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace });
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
    await h.agents.approve(runId);
    const result = await h.agents.result(runId);
    assert.equal(attempts, 2, 'Temporal retried the activity');
    assert.equal(result.output, 'Deleted access.log to free space.', 'the retry reported the first outcome');
    assert.equal(readFileSync(path.join(h.workspace, 'access.log'), 'utf8'), 'recreated after the first deletion\n', 'no second deletion');
    const deleteKey = (await h.trace(runId)).find((l) => l.type === 'tool_start' && l.toolName === 'delete_file')!;
    const callKey = deleteKey.type === 'tool_start' ? deleteKey.callKey : '';
    assert.deepEqual(keys, [`${runId}:${callKey}`, `${runId}:${callKey}`], 'both attempts ran with the same idempotency key, <runId>:<callKey>');
    assert.equal((await h.store.lookupEffect(`${runId}:${callKey}`))?.outcome, 'Deleted access.log.', 'the first outcome is the recorded one');
    await h.replayAll();
  } finally {
    await h.close();
  }
});

test('a tool the worker lacks is a clear error to the model, not a hang', async () => {
  const h = await startHarness('mismatch', { tools: (dataDir) => builtinTools(dataDir).filter((t) => t.name !== 'read_file') });
  try {
    const result = await h.run({ goal: GOAL, model: 'scripted:plan' });
    assert.equal(result.status, 'completed');
    const tools = (await h.agents.transcript(result.runId)).filter((m) => m.role === 'tool');
    assert.match(tools[1]!.content, /^Error: This worker has no implementation of tool "read_file" \(it has: list_files, write_file/);
    await h.replayAll();
  } finally {
    await h.close();
  }
});
