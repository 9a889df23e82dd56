/**
 * Every recorded history, from this and earlier versions, replays against the current workflow code; and
 * the fixtures are able to catch an incompatible change.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { PROJECT_ROOT } from '../src/paths.ts';
import { quietTemporalLogs } from '../src/worker/temporal-logs.ts';
import { pruneBundleCache, workflowBundle } from '../src/worker/workflow-bundle.ts';
import { activities, eventTypes, localActivities, payloadJson, type History } from './helpers/histories.ts';

const root = path.join(PROJECT_ROOT, 'test', 'fixtures', 'histories');
interface Fixture {
  file: string;
  set: string;
  name: string;
  workflowId: string;
  history: History;
}
const fixtures: Fixture[] = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.binpb'))
  .sort()
  .map((file) => {
    const [name, workflowId] = path.basename(file, '.binpb').split('@') as [string, string];
    return { file, set: path.dirname(file), name, workflowId, history: proto.temporal.api.history.v1.History.decode(readFileSync(path.join(root, file))) };
  });
const sinks = { trace: { emit: { fn: () => {}, callDuringReplay: false } } };

before(() => quietTemporalLogs());

/** Replays the fixtures against a workflow bundle; the failures by file. */
async function replay(bundle: { codePath: string }, which: readonly Fixture[] = fixtures): Promise<Map<string, Error>> {
  const failures = new Map<string, Error>();
  let replayed = 0;
  // One history at a time, results in the same order (executions of one run share a workflow id).
  for await (const result of Worker.runReplayHistories({ workflowBundle: bundle, sinks }, which.map(({ workflowId, history }) => ({ workflowId, history })))) {
    const fixture = which[replayed++]!;
    assert.equal(result.workflowId, fixture.workflowId);
    if (result.error) failures.set(fixture.file, result.error);
  }
  assert.equal(replayed, which.length);
  return failures;
}

test('recorded histories of every version replay without nondeterminism', async () => {
  const sets = new Set(fixtures.map((f) => f.set));
  assert.ok(sets.size >= 6 && fixtures.length >= 100, `fixtures present: ${fixtures.length} in ${sets.size} sets`);
  const failures = await replay(await workflowBundle());
  assert.deepEqual([...failures].map(([file, error]) => `${file}: ${error.message}`), []);
});

test("the workflow bundle's source map keeps its mappings and leaves the sources' text out", async () => {
  // Every worker start and every replay decodes and parses this map; stack traces need only the mappings.
  const code = readFileSync((await workflowBundle()).codePath, 'utf8');
  const inline = '//# sourceMappingURL=data:application/json;charset=utf-8;base64,';
  const map = JSON.parse(Buffer.from(code.slice(code.lastIndexOf(inline) + inline.length), 'base64').toString('utf8')) as { sources: string[]; mappings: string; sourcesContent?: unknown };
  assert.ok(map.sources.some((source) => source.endsWith(path.join('workflows', 'agent.ts'))), 'frames map to the workflow sources');
  assert.ok(map.mappings.length > 100_000);
  assert.equal(map.sourcesContent, undefined);
});

test('the bundle cache deletes, when it builds a bundle, the bundles no process loaded for a week', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bundle-cache-'));
  try {
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const bundle = (name: string, loadedDaysAgo: number) => {
      writeFileSync(path.join(dir, name), '');
      const at = new Date(now - loadedDaysAgo * day);
      utimesSync(path.join(dir, name), at, at);
    };
    bundle('workflow-bundle-aaaa.js', 8);
    bundle('workflow-bundle-bbbb-1f4271c2.js', 30);
    bundle('workflow-bundle-cccc.js', 6);
    bundle('workflow-bundle-dddd-np.js', 0);
    bundle('test-times.json', 30);
    assert.deepEqual(pruneBundleCache(dir, now).sort(), ['workflow-bundle-aaaa.js', 'workflow-bundle-bbbb-1f4271c2.js']);
    assert.deepEqual(readdirSync(dir).sort(), ['test-times.json', 'workflow-bundle-cccc.js', 'workflow-bundle-dddd-np.js']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the v0.4 set holds continue-as-new steps, research children, a crash retry and a parallel stop', () => {
  const v4 = fixtures.filter((f) => f.set.startsWith('v0.4-'));
  assert.ok(v4.length > 20);
  const canSteps = v4.filter((f) => eventTypes(f.history).at(-1) === 'WorkflowExecutionContinuedAsNew');
  assert.ok(canSteps.length >= 3, 'executions that continued-as-new, not only the last of each run');
  assert.ok(v4.some((f) => f.history.events![0]!.workflowExecutionStartedEventAttributes!.continuedExecutionRunId), 'executions that began from a continue-as-new');
  assert.ok(v4.filter((f) => f.history.events![0]!.workflowExecutionStartedEventAttributes!.parentWorkflowExecution).length >= 2, 'research children');
  const crash = v4.find((f) => f.name === 'crash-retry')!;
  const retried = activities(crash.history, 'runTool').find((a) => (a.attempt ?? 0) >= 2);
  assert.match(retried?.lastFailure?.message ?? '', /heartbeat/i, 'a tool retried after its worker was killed');
  const stop = fixtures.find((f) => f.set.startsWith('v0.4-') && f.name === 'parallel-stop')!;
  const [scan] = activities(stop.history, 'runTool');
  assert.equal(scan?.closedAs, 'Completed', 'the sibling finished before the run');
  assert.ok(localActivities(stop.history, 'runTool').length === 0);
  const result = payloadJson(stop.history.events!.at(-1)!.workflowExecutionCompletedEventAttributes!.result!.payloads![0]) as { reason: string };
  assert.equal(result.reason, 'max_tool_calls');
  // Recorded from the code before siblings finished (9a5df69^): the run completed with the scan still in flight.
  const old = fixtures.find((f) => f.set.includes('before-siblings-finish') && f.name === 'parallel-stop')!;
  assert.equal(activities(old.history, 'runTool')[0]?.closed, null);
});

test("the v0.7 set holds a team's own tools, an agent, an agent called as a tool (approved, and cancelled) and a handoff and back", () => {
  const v7 = fixtures.filter((f) => f.set.startsWith('v0.7-'));
  const named = (name: string) => v7.find((f) => f.name === name);
  for (const name of ['user-tools', 'agent', 'agent-as-tool', 'agent-as-tool.child', 'agent-as-tool-cancelled', 'agent-as-tool-cancelled.child', 'handoff-and-back']) assert.ok(named(name), name);
  const result = (name: string) => payloadJson(named(name)!.history.events!.at(-1)!.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0]) as { status: string } | undefined;
  assert.equal(result('agent-as-tool')?.status, 'completed');
  assert.equal(result('handoff-and-back')?.status, 'completed');
  assert.equal(named('agent-as-tool-cancelled')!.history.events!.at(-1)!.eventType, proto.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED);
  // The cancelled child's spend was read from its memo (a local activity) before the parent ended.
  assert.equal(localActivities(named('agent-as-tool-cancelled')!.history, 'childTotals').length, 1);
});

/** The ids of the patch markers an execution recorded, in order. */
function patchIds(history: Fixture['history']): string[] {
  const markers = history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');
  return markers.map((m) => (payloadJson(m.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]) as { id: string }).id);
}

test('from v0.6, an execution records one change marker (and one TemporalChangeVersion upsert), not one per change', () => {
  const v6 = fixtures.filter((f) => f.set.startsWith('v0.6-'));
  assert.ok(v6.length > 20);
  for (const { file, history } of v6) {
    assert.deepEqual(patchIds(history), ['changes-to-v0.6'], file);
    const upserts = history.events!.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.TemporalChangeVersion);
    assert.equal(upserts.length, 1, file);
  }
  // Before, a fresh run recorded one per change.
  const plan = fixtures.find((f) => f.set.startsWith('v0.5-') && f.name === 'plan')!;
  assert.equal(plan.history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch').length, 4);
});

test('from v0.8, an execution records one change marker again, and upserts its memo and search attributes once per workflow task', () => {
  const v8 = fixtures.filter((f) => f.set.startsWith('v0.8-'));
  assert.ok(v8.length > 30);
  for (const { file, history } of v8) {
    assert.deepEqual(patchIds(history), ['changes-to-v0.8'], file);
  }
  // The plan run (3 turns, a final answer checked by a local activity): the agent's search attributes once per
  // task that changed them, and the live and final memos of its last task in one upsert. v0.7 recorded a
  // marker per change met, a search-attribute upsert per change of the state, and the final memo on its own.
  const count = (set: string) => {
    const events = fixtures.find((f) => f.set.startsWith(set) && f.name === 'plan')!.history.events!;
    return {
      markers: events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch').length,
      attributeUpserts: events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes && !e.upsertWorkflowSearchAttributesEventAttributes.searchAttributes?.indexedFields?.TemporalChangeVersion).length,
      memoUpserts: events.filter((e) => e.workflowPropertiesModifiedEventAttributes).length,
    };
  };
  assert.deepEqual(count('v0.8-'), { markers: 1, attributeUpserts: 4, memoUpserts: 2 });
  assert.deepEqual(count('v0.7-'), { markers: 1, attributeUpserts: 5, memoUpserts: 3 });
});

test('from v0.9, one change marker still, and the final answer is checked by the model call that gave it: no step of its own', () => {
  const v9 = fixtures.filter((f) => f.set.startsWith('v0.9-'));
  assert.ok(v9.length > 30);
  for (const { file, history } of v9) assert.deepEqual(patchIds(history), ['changes-to-v0.9'], file);
  const plan = (set: string) => fixtures.find((f) => f.set.startsWith(set) && f.name === 'plan')!.history;
  assert.equal(localActivities(plan('v0.9-'), 'checkAnswerClaims').length, 0);
  assert.equal(localActivities(plan('v0.8-'), 'checkAnswerClaims').length, 1, 'v0.8 checked it with a local activity (and still does on replay)');
  assert.equal(plan('v0.9-').events!.length, plan('v0.8-').events!.length - 1, 'one event less: the local activity marker');
  // The claim judge's warnings are merged with the rule check's in the local activity, as before.
  const judged = fixtures.find((f) => f.set.startsWith('v0.9-') && localActivities(f.history, 'judgeClaims').length + activities(f.history, 'judgeClaims').length > 0)!;
  assert.equal(localActivities(judged.history, 'checkAnswerClaims').length, 1, judged.file);
});

test('a deliberate incompatible change (a timer before every tool call) is caught by exactly the fixtures that call a tool', { timeout: 300_000 }, async () => {
  // Built once and cached like the worker's bundle (webpack takes seconds).
  const changed = await workflowBundle({ interceptorModules: [path.join(PROJECT_ROOT, 'test', 'fixtures', 'workflow-changes', 'timer-before-tools.ts')] });
  const failures = await replay(changed);
  const callsATool = (f: Fixture) => activities(f.history, 'runTool').length + localActivities(f.history, 'runTool').length > 0;
  const expected = fixtures.filter(callsATool).map((f) => f.file);
  assert.ok(expected.length > 40);
  assert.deepEqual([...failures.keys()].sort(), expected.sort(), 'every fixture with a tool call fails; none other');
  for (const [file, error] of failures) assert.equal(error.name, 'DeterminismViolationError', `${file}: ${error.message}`);
});
