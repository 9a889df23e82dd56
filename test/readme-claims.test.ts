/**
 * The documentation's behaviour section and the tests, kept in step (`npm run check:claims`, and part of
 * `npm test`): each claim below is a phrase the README or a page under docs/ says, with the tests that prove
 * it. The check fails when a phrase is no longer in the docs (the claim changed: update the tests and this
 * table), when a named test no longer exists, and when a part of the behaviour section (a bullet of "How it
 * works" in docs/concepts.md, or one of its subsections) has no claim here at all.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../src/paths.ts';
import { docsText } from './helpers/docs-text.ts';

/** README phrase → [test file (under test/), test name] for each test that proves it. */
const CLAIMS: [phrase: string, tests: [file: string, name: string][]][] = [
  // The loop
  ['at the top of every iteration — cancelled? wall time? turns? cost?', [['pure-helpers', 'limits are checked in the order wall time, turns, cost']]],
  ['its cost is added before anything else', [['agent-loop', 'a budget cap stops the run with the cost at or below the cap plus one reply']]],
  ['validated (JSON, zod schema, known tool)', [['agent-loop', 'malformed arguments and an unknown tool go back to the model as errors and the run goes on']]],
  ['deduplicated if read-only and identical to an earlier one', [['tools-policy', 'an identical read-only call runs once: two tool calls, one tool run']]],
  // Statuses
  ['Every stop records `status`, a typed `reason`, turns, tool runs, cost and writes `run_stopped` to the trace', [['stops', 'maxToolCalls: checked before each tool run → budget_exceeded, max_tool_calls'], ['agent-loop', 'its trace has the seed event sequence, each line once']]],
  ["a closed run's state is readable with no worker running", [['approval', "a closed run's state is readable with no worker running"]]],
  // Stops
  ['`maxTurns` (default 20)', [['stops', 'a run that sets no limits stops after 20 turns'], ['agent-loop', 'runaway with maxTurns 20 stops after exactly 20 turns with an empty answer']]],
  ['`maxBudgetUsd` (default $1, children included)', [['stops', 'a run that sets no limits stops once it has spent $1'], ['cancellation', "the child's budget is the smaller of its own and what the parent has left"]]],
  ['timer that also interrupts the model call, tool or wait in flight', [['stops', 'maxWallMs: the timer interrupts a model call in flight → budget_exceeded, max_time'], ['stops', 'maxWallMs also interrupts a tool in flight'], ['stops', 'maxWallMs also ends a wait for approval']]],
  ['`maxToolCalls` (checked before each tool run)', [['stops', 'maxToolCalls: checked before each tool run → budget_exceeded, max_tool_calls']]],
  ['`maxRepeatedCalls` times in a row (default 3)', [['stops', 'the same call K times in a row: one warning, then interrupted, no_progress']]],
  ['`maxStaleTurns` turns whose results were all seen before (default 8)', [['stops', 'N turns of results already seen: one warning, then interrupted, no_progress']]],
  ['`maxPolicyDenials` denials (default 3)', [['stops', 'policy: a tool denied N times stops the run → interrupted, policy']]],
  ['one repair request, then `failed`/`output_contract`', [['stops', 'a broken answer is sent back once with the error, and the repair completes'], ['stops', 'a second failure ends the run failed, output_contract']]],
  ['cancel → `interrupted` with `{type: "cancelled", reason}`', [['agent-loop', 'cancel while the model is slow: interrupted with the reason, and the HTTP request was aborted']]],
  // Questions
  ['refused unless the run waits for input', [['stops', 'waits for input, resumes with the answer as the tool result'], ['stops', 'an answer sent while the run is not waiting is refused with a clear error']]],
  // Model calls
  ['Temporal retries 408/409/429/5xx', [['agent-loop', '408, 409 and 429 are retried by Temporal; a retry-after is honoured'], ['agent-loop', 'a model answering 500 twice then 200 completes']]],
  ['honouring `retry-after`', [['agent-loop', '408, 409 and 429 are retried by Temporal; a retry-after is honoured']]],
  ["any other 4xx ends the run `failed` with the provider's message", [['agent-loop', 'a model answering 400 ends the run failed with the provider message']]],
  ['A cancel aborts the HTTP request', [['agent-loop', 'cancel while the model is slow: interrupted with the reason, and the HTTP request was aborted']]],
  // The model call as a local activity
  ['its reply is recorded in history as a marker', [['agent-loop', 'the plan run completes the same, its model calls local activities (markers, no activity tasks)']]],
  ["the next worker makes that task's model calls and quick reads again", [['durability', "killed during a local model call (modelCall 'local'): the workflow task it held times out, the new worker redoes that task's steps"]]],
  ["announces the cancel on the run's event stream once Temporal has it", [['agent-loop', 'a cancel reaches the model call through the store: it stops with RunCancelRequested, then the run is cancelled']]],
  ['catches a cancel sent before it began or by a client without the store', [['agent-loop', 'a cancel from a client without the store: the call asks Temporal (every second) and stops itself']]],
  ["given the run's wall-time deadline and stops there itself", [['stops', "maxWallMs with modelCall 'local': the call stops at the run's deadline, and that is the stop"]]],
  // Tools
  ['**Safe defaults**', [['safety', 'a tool contract that states no risk has side effects and asks for approval']]],
  ['absolute paths and symbolic links out of it are refused', [['agent-loop', 'paths escaping the workspace are refused'], ['workspace', '"..", absolute paths and outward links are refused']]],
  ['with `toolErrorsAreFatal` the run ends `failed`', [['agent-loop', 'with toolErrorsAreFatal the run fails on the first tool error']]],
  // Workspaces
  ['`AgentClient.startRun` refuses any other `workspace` before starting a run', [['safety', 'the client refuses a workspace outside its roots before starting anything'], ['safety', 'a run started around the client is refused by the worker and ends failed']]],
  // Bounded payloads
  ['the whole output is kept in the store', [['safety', 'a 3 MiB tool output is cut for the model with a note; the whole output is kept, its reference traced']]],
  ['The tool messages of one turn share a 1 Mi-character budget', [['safety', 'the tool messages of one turn are fitted under one budget']]],
  ['a model reply over 256 Ki characters ends the run `failed` with the figure', [['safety', 'a model reply over the limit ends the run failed with the reason']]],
  ['over their limit are refused with a clear error', [['safety', 'a goal, an answer or a reason over its limit is refused with a clear error']]],
  // Policy
  ['medium runs within a quota (default 5) and then asks', [['tools-policy', 'medium-risk tools run within the quota, then ask']]],
  ['extreme is denied — the model is told — unless `allowExtreme` names the tool', [['tools-policy', 'an extreme tool is denied by default and never runs'], ['tools-policy', 'an extreme tool allowed by the run configuration runs']]],
  // Approval
  ['waits durably (no worker needs to be alive)', [['approval', 'no worker needs to run while a run waits: stop it, approve, start one, the run finishes'], ['durability', 'killed while waiting for approval: the approval sent with no worker is not lost']]],
  ['refuse an unknown or already-decided call and a stale `argsHash`', [['approval', 'unknown callKey, wrong argsHash and a second decision are refused with a clear error; the run goes on']]],
  ['SHA-256 of the canonical JSON of the exact arguments', [['approval', 'argsHash is the SHA-256 of the canonical JSON of the exact arguments']]],
  ['the same exist as signals for callers that cannot wait', [['approval', 'a signal approval sent while no worker runs is not lost'], ['approval', 'a stale signal is recorded as refused and changes nothing']]],
  ['Several calls in one reply are decided one by one, in order', [['approval', 'several calls in one reply are decided one by one, in order']]],
  ['`policy.approvalTimeoutMs` turns silence into a rejection', [['approval', 'an approval timeout ends the wait as a rejection with a reason']]],
  // Parallel tool calls
  ['the approved ones run at the same time, and their results go back in the model\'s order', [['cancellation', 'parallel: two tool calls in one reply run at the same time; results keep the model order']]],
  ['Quick low-risk read-only tools (timeout ≤ 10 s) run as local activities', [['history', 'quick read-only tools run as local activities: a marker in history, no activity task']]],
  // Cancellation and progress
  ['tools see `ctx.signal` abort', [['cancellation', 'cancelled mid-scan: interrupted with the reason, the tool saw its signal abort, nothing ran after']]],
  ['and no further activity starts', [['cancellation', 'cancelled mid-scan: interrupted with the reason, the tool saw its signal abort, nothing ran after']]],
  ['a running tool or model call hears it there and stops at once', [['cancellation', 'cancelled mid-scan: interrupted with the reason, the tool saw its signal abort, nothing ran after']]],
  ['the activities stop on that line one workflow task later', [['cancellation', 'a cancel from a client without the store: the workflow announces it, the tool stops on that, and the run ends the same'], ['cancellation', "the run's wall time: the workflow announces the stop, and the tool stops on that"]]],
  ['arrive with the next heartbeat alone', [['cancellation', "with the store's stream out of the worker's reach, a cancel reaches the tool with its next heartbeat"]]],
  ["A tool that ignores its signal is abandoned 2 s after Temporal's cancel", [['cancellation', 'a tool that ignores its signal is abandoned after a grace period and the run still ends']]],
  ['it shows in `state.progress` and as `tool_progress` in the trace', [['cancellation', 'without a cancel it completes, and progress labels show in the state query while it runs']]],
  // Research sub-agents
  ['`research({question})` runs this same workflow as a child', [['cancellation', "the child's turns and cost roll up into the parent's totals"]]],
  ['read-only tools and limits', [['cancellation', 'a research child is offered read-only tools only'], ['cancellation', 'a child hitting its turn cap returns an error text and the parent completes']]],
  ['budget capped by what the parent has left', [['cancellation', "the child's budget is the smaller of its own and what the parent has left"]]],
  ['cancelling the parent cancels the child', [['cancellation', 'cancelling the parent while the child works cancels the child']]],
  // Call keys
  ['a key unique within the run', [['safety', 'approvals are keyed by the harness, never by the provider id'], ['approval', 'approved: access.log is deleted, 3 turns, the answer says so']]],
  // Idempotency
  ['`ctx.idempotencyKey = <workflowId>:<callKey>`', [['tools-policy', 'a delete_file activity that fails after deleting is retried and does not delete twice'], ['durability', 'killed during a tool: the interrupted tool is retried with the same key, nothing else reruns']]],
  ['reports the first outcome instead of acting twice', [['tools-policy', 'a delete_file activity that fails after deleting is retried and does not delete twice']]],
  // Traces
  ['never duplicates a line', [['durability', 'killed during a model call: the call is retried on the new worker'], ['agent-loop', 'its trace has the seed event sequence, each line once']]],
  ['each new line with its event on the live stream', [['store', 'traces published: each new line and its event in one transaction, all or nothing']]],
  // Cost
  ['`costUsd` is exactly Σ usage × price', [['agent-loop', 'completes in 3 turns with 2 tool runs, rising prompt tokens and exact cost']]],
  // Surviving process death, and history that grows linearly
  ['SIGKILL during a model call, a tool, an approval wait, between turns', [
    ['durability', 'killed during a model call: the call is retried on the new worker'],
    ['durability', 'killed during a tool: the interrupted tool is retried with the same key, nothing else reruns'],
    ['durability', 'killed while waiting for approval: the approval sent with no worker is not lost'],
    ['durability', 'killed between turns: the next worker picks up where the history ends'],
  ]],
  ['interrupted one is retried with the same idempotency key', [['durability', 'killed during a tool: the interrupted tool is retried with the same key, nothing else reruns']]],
  ['approvals, answers and cancels sent while no worker runs wait in Temporal', [['durability', 'a cancel sent while no worker runs is not lost'], ['approval', 'a signal approval sent while no worker runs is not lost']]],
  ['it too can be stopped and started again mid-run', [['server-restart', 'a run waiting for approval survives a server restart on the same SQLite file']]],
  ['a link the store lacks is asked of the run', [['history', 'a worker whose transcript store lacks the links asks the run for them']]],
  ['a link whose content does not match its hash fails the run', [['store', 'transcript links: tampered content is a StoreIntegrityError, never a different context']]],
  ['The run id users hold stays valid across it', [['history', 'a run that continues-as-new every 3 turns keeps its id, its totals and one trace stream'], ['history', 'queries, approvals and cancel reach the run after it continued-as-new']]],
  // The store
  ['several processes on one machine may share it', [['store', 'begins from two processes at once: each key won exactly once; events from the other process reach a subscriber']]],
  ['chosen by `AGENT_STORE_URL`', [['store', 'unset or empty → SQLite in the data directory; sqlite:<path>; postgres URLs; anything else is refused']]],
  ['run on start under an advisory lock', [['store', 'workers opening a fresh database together migrate it once']]],
  ['**the run waits for the store**', [['store-outage', 'an approval arriving during the outage: the message is sent once the store is back, and the run completes with its real result'], ['store-outage', 'a rejection during the outage: the model call waits for the transcript store, then the run goes on']]],
  ['Only an outage longer than `limits.maxStoreOutageMs`', [['store-outage', 'an outage longer than the run allows: failed, store_unavailable, and the effect not run']]],
  // Upgrading workflow code safely
  ['every test replays the histories of its runs', [['history', 'every execution of every run on the task queue is replayed: each continue-as-new step, each child']]],
  ['replays the fixture sets in `test/fixtures/histories/`', [['replay', 'recorded histories of every version replay without nondeterminism'], ['replay', 'the v0.4 set holds continue-as-new steps, research children, a crash retry and a parallel stop']]],
  ['a replay failure names the fixture and the nondeterminism', [['replay', 'a deliberate incompatible change (a timer before every tool call) is caught by exactly the fixtures that call a tool']]],
  // Redaction and the Temporal history
  ['masked in traces, in the `state` and `transcript` queries', [['tools-policy', 'a redacted argument is masked in the state, the transcript query and the trace']]],
  ['`temporal workflow show` displays only ciphertext', [['tools-policy', 'with AGENT_PAYLOAD_KEY encryption, the Temporal history holds no redacted value']]],
];

/** Claims named in issue 17 that had no test: each must stay in the table above. */
const ISSUE_17_CLAIMS = [
  'honouring `retry-after`',
  'Temporal retries 408/409/429/5xx',
  'Quick low-risk read-only tools (timeout ≤ 10 s) run as local activities',
  'timer that also interrupts the model call, tool or wait in flight',
  "a closed run's state is readable with no worker running",
  'SHA-256 of the canonical JSON of the exact arguments',
  '`maxTurns` (default 20)',
  '`maxBudgetUsd` (default $1, children included)',
  'read-only tools and limits',
];

const squash = (text: string) => text.replace(/\s+/g, ' ');
const readme = squash(docsText());

/** The test and describe names a file declares (string-literal names only). */
function testNames(file: string): Set<string> {
  const source = readFileSync(path.join(PROJECT_ROOT, 'test', `${file}.test.ts`), 'utf8');
  const names = new Set<string>();
  for (const match of source.matchAll(/\b(?:test|describe|it)\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`([^`$]*)`)/g)) {
    names.add((match[1] ?? match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1'));
  }
  return names;
}

test('every claim in the table is still in the README or docs/', () => {
  const missing = CLAIMS.map(([phrase]) => phrase).filter((phrase) => !readme.includes(squash(phrase)));
  assert.deepEqual(missing, [], 'phrases the table names but neither the README nor docs/ says any more (update the tests and the table)');
});

test('every test the table names exists', () => {
  const names = new Map<string, Set<string>>();
  const missing: string[] = [];
  for (const [phrase, tests] of CLAIMS) {
    assert.ok(tests.length > 0, `"${phrase}" names no test`);
    for (const [file, name] of tests) {
      if (!names.has(file)) names.set(file, testNames(file));
      if (!names.get(file)!.has(name)) missing.push(`test/${file}.test.ts: "${name}" (for "${phrase}")`);
    }
  }
  assert.deepEqual(missing, []);
});

test("every part of the docs' behaviour section has a claim with a test", () => {
  const raw = readFileSync(path.join(PROJECT_ROOT, 'docs', 'concepts.md'), 'utf8');
  const section = raw.slice(raw.indexOf('## How it works'), raw.indexOf('\n## ', raw.indexOf('## How it works') + 1));
  assert.ok(section.length > 1000, 'docs/concepts.md has a "How it works" section');
  // Its parts: each top-level bullet (to the next bullet or heading) and each ### subsection's text.
  const parts: { title: string; text: string }[] = [];
  const lines = section.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const bullet = /^- \*\*(.+?)\*\*/.exec(line);
    const heading = /^### (.+)/.exec(line);
    if (!bullet && !heading) continue;
    let end = i + 1;
    while (end < lines.length && !/^(- \*\*|### |## )/.test(lines[end]!)) end++;
    parts.push({ title: (bullet?.[1] ?? heading?.[1])!, text: squash(lines.slice(i, end).join('\n')) });
  }
  assert.ok(parts.length >= 20, `parts found: ${parts.map((p) => p.title).join(', ')}`);
  const uncovered = parts.filter((part) => !CLAIMS.some(([phrase]) => part.text.includes(squash(phrase)))).map((p) => p.title);
  assert.deepEqual(uncovered, [], 'parts of the behaviour section with no claim in the table (add one, with its tests)');
});

test('the claims issue 17 found untested stay in the table', () => {
  const phrases = new Set(CLAIMS.map(([phrase]) => phrase));
  assert.deepEqual(ISSUE_17_CLAIMS.filter((c) => !phrases.has(c)), []);
});

test("the README's two commands are the ones CI runs, each doing its own set-up", () => {
  const readmeRaw = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const blocks = [...readmeRaw.slice(readmeRaw.indexOf('## Two commands')).matchAll(/```sh\n(.+)\n```/g)].map((m) => m[1]);
  assert.deepEqual(blocks.slice(0, 2), ['npm ci && npm start', 'npm ci && npm test']);
  const scripts = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  assert.match(scripts.start ?? '', /src\/cli\/cli\.ts demo$/, 'npm start runs the demo');
  const ci = readFileSync(path.join(PROJECT_ROOT, '.ci', 'run'), 'utf8').split('\n').filter((line) => !line.trimStart().startsWith('#'));
  assert.ok(ci.includes('npm ci --no-audit --no-fund'), '.ci/run installs with npm ci');
  assert.equal(ci.filter((line) => line.trim()).at(-1), 'npm test', ".ci/run ends with the README's test command");
});

test('every docs page the README links to is a file', () => {
  const readmeRaw = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const linked = [...readmeRaw.matchAll(/\]\((docs\/[\w-]+\.md)\)/g)].map((m) => m[1]!);
  assert.ok(linked.length >= 8, linked.join(' '));
  assert.deepEqual(linked.filter((file) => !existsSync(path.join(PROJECT_ROOT, file))), []);
});
