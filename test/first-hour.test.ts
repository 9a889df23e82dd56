/**
 * A newcomer's first hour (issue 38), each surprise found then, as a test that a real process meets:
 * Ctrl-C on `run` (a real SIGINT to the process group, as a terminal sends it), the README's keyless tour
 * run verbatim across processes, `start` with no worker, a worker with no provider key, and an encrypted run
 * read without its key.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@temporalio/client';
import { AgentClient } from '../src/client/client.ts';
import { agentDataConverter } from '../src/client/payload-codec.ts';
import { STDERR_TAIL_CHARS, stderrExcerpt } from '../src/mcp/stderr-excerpt.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { freeDevServerPort } from '../src/temporal/temporal-server.ts';
import { groupAlive, spawnGroup, type CliProcess } from './helpers/cli-process.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness('first-hour');
  // The processes these tests start are the only workers on the harness's task queue (its runs are replayed at the end).
  await h.stopWorker();
});
after(() => h.replayAndClose());

const freshDataDir = (name: string) => mkdtempSync(path.join(tmpdir(), `agent-first-hour-${name}-`));

test('Ctrl-C on `npm run agent -- run`: the run ends cancelled, then the process exits, with no query retries', { timeout: 180_000 }, async (t) => {
  const cli = spawnGroup('npm', ['run', 'agent', '--silent', '--', 'run', 'Free some disk space.', '--model', 'scripted:delete-approval'], {
    TEMPORAL_ADDRESS: h.address,
    AGENT_TASK_QUEUE: h.taskQueue,
    AGENT_DATA_DIR: freshDataDir('ctrl-c'),
    AGENT_SCRIPTED_MODEL_URL: '',
    // Temporal's warnings shown, as a user sees them: the retried queries were warnings.
    TEMPORAL_LOG_LEVEL: 'WARN',
  });
  t.after(() => {
    if (groupAlive(cli.child.pid!)) process.kill(-cli.child.pid!, 'SIGKILL');
  });
  await eventually(() => cli.stderr().includes('waiting for approval of delete_file') || (cli.child.exitCode !== null && Promise.reject(new Error(cli.stderr()))), 'the run to wait for approval', 120_000);
  const runId = /run (run-\S+):/.exec(cli.stderr())?.[1];
  assert.ok(runId, cli.stderr());

  // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group (npm forwards it once more).
  process.kill(-cli.child.pid!, 'SIGINT');
  const { code, signal } = await cli.exited;
  // `run` exits 1 (the run did not complete); npm then may end by the signal it forwarded.
  assert.ok(code === 1 || signal === 'SIGINT', `exit ${code} ${signal}\n${cli.stderr()}`);
  assert.match(cli.stdout(), /status=interrupted reason=cancelled/);
  assert.match(cli.stdout(), /^cancelled: user pressed Ctrl-C$/m);
  assert.doesNotMatch(cli.stderr(), /consistent query buffer|no worker answered|retried/);
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'interrupted');
  assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'user pressed Ctrl-C' });
  await eventually(() => !groupAlive(cli.child.pid!), 'every process of the group to exit');
});

/** Runs a CLI command to its end (not detached: nothing signals it). */
async function runToEnd(command: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = spawnGroup('sh', ['-c', command], env);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** The commands of the README's five-minute tour, as a reader copies them. */
function tourCommands(): string[] {
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const tour = readme.slice(readme.indexOf('## A five-minute tour'));
  const block = /```sh\n([\s\S]*?)\n```/.exec(tour)?.[1];
  assert.ok(block, 'the tour has a shell block');
  return block.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
}

test("the README's five-minute tour, verbatim and keyless, ends with a run approved through the inbox's API", { timeout: 240_000 }, async (t) => {
  const port = await freeDevServerPort();
  const dataDir = freshDataDir('tour');
  // Where this test's Temporal server and HTTP port are; no key, no scripted model server.
  const env = { TEMPORAL_ADDRESS: h.address, AGENT_TASK_QUEUE: h.taskQueue, AGENT_DATA_DIR: dataDir, AGENT_HTTP_PORT: String(port), AGENT_SCRIPTED_MODEL_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '', MODEL: '' };
  const background: CliProcess[] = [];
  t.after(() => {
    for (const p of background) if (groupAlive(p.child.pid!)) process.kill(-p.child.pid!, 'SIGKILL');
  });
  const commands = tourCommands();
  assert.deepEqual(commands.map((c) => c.endsWith(' &')), [true, true, true, false], commands.join('\n'));
  let runId = '';
  for (const command of commands) {
    if (command.endsWith(' &')) {
      const p = spawnGroup('sh', ['-c', command.slice(0, -2)], env);
      background.push(p);
      // Each of the three says "Ctrl-C stops it" once it is up.
      await eventually(() => (p.stdout() + p.stderr()).includes('Ctrl-C stops it') || (p.child.exitCode !== null && Promise.reject(new Error(`${command}: ${p.stderr()}`))), `"${command}" to be up`, 120_000);
    } else {
      const started = await runToEnd(command, env);
      assert.equal(started.code, 0, started.stderr);
      // npm's own banner comes first; the run id is what the command printed last.
      runId = started.stdout.trim().split('\n').at(-1)!;
      assert.match(runId, /^run-\w+$/);
      assert.doesNotMatch(started.stderr, /No worker polls/, 'a worker polls the queue');
    }
  }

  // The inbox: the page, and the API it calls (GET /runs?pending=true, then the approval with the hash it shows).
  const base = `http://127.0.0.1:${port}`;
  assert.equal((await fetch(`${base}/ui`)).status, 200);
  const pending = await eventually(async () => {
    const { runs } = (await (await fetch(`${base}/runs?pending=true`)).json()) as { runs: { runId: string; pending: { kind: string; callKey: string; argsHash: string; toolName: string } | null }[] };
    return runs.find((r) => r.runId === runId)?.pending ?? undefined;
  }, 'the run in the inbox', 60_000);
  assert.equal(pending.toolName, 'delete_file');
  const approved = await fetch(`${base}/runs/${runId}/approvals/${pending.callKey}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'approve', argsHash: pending.argsHash }) });
  assert.equal(approved.status, 200, await approved.clone().text());
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.equal(result.output, 'Deleted access.log to free space.');
  const workspace = path.join(dataDir, 'workspace');
  assert.ok(!existsSync(path.join(workspace, 'access.log')), 'the approved delete happened in the demo workspace');

  // The README's way back to the documented output: `reset` copies the workspace afresh.
  const reset = await runToEnd('npm run agent -- reset', env);
  assert.equal(reset.code, 0, reset.stderr);
  assert.equal(readFileSync(path.join(workspace, 'access.log'), 'utf8'), readFileSync(path.join(PROJECT_ROOT, 'examples', 'workspace', 'access.log'), 'utf8'));

  // Ctrl-C to each, as `fg` and Ctrl-C would: each was up to the end and stops cleanly.
  for (const p of background) assert.equal(p.child.exitCode, null, `still up: ${p.stderr()}`);
  for (const p of background) process.kill(-p.child.pid!, 'SIGINT');
  for (const p of background) await p.exited;
});

test('`start` with a server but no worker on the queue says so, and how to start one (keyless too)', async () => {
  const taskQueue = `${h.taskQueue}-nobody`;
  const started = await runToEnd('npm run agent --silent -- start "Free some disk space." --model scripted:delete-approval', { TEMPORAL_ADDRESS: h.address, AGENT_TASK_QUEUE: taskQueue, AGENT_DATA_DIR: freshDataDir('nobody') });
  assert.equal(started.code, 0, started.stderr);
  assert.match(started.stderr, new RegExp(`No worker polls task queue "${taskQueue}": the run waits until one does\\. Start one: npm run agent -- worker .* npm run agent -- worker --scripted to play scripted:\\* models with no key`));
  await new AgentClient(h.temporal, { taskQueue }).cancelRun(started.stdout.trim(), 'the test is over');
});

test("every npm script's `--help` prints its usage, and a wrong option is one line and the usage (exit 2), never a stack trace", async () => {
  const scripts: [script: string, wrong: string, said: RegExp][] = [
    ['agent', 'run --bogus "Free some disk space."', /^UsageError: Unknown option '--bogus'\. The options: npm run agent -- --help$/m],
    ['bench', '--bogus', /^bench: Unknown option '--bogus'/],
    ['eval', 'no-such-tasks.json', /^eval: no task file at .*no-such-tasks\.json$/m],
    ['eval:claims', 'no-such-cases', /^eval:claims: no such file or directory: no-such-cases$/m],
    ['test:chaos', '--runs many', /^test:chaos: --runs must be a positive number, not "many"$/m],
    ['test:mutants', 'no-such-mutant', /^test:mutants: unknown mutant no-such-mutant$/m],
  ];
  for (const [script, wrong, said] of scripts) {
    const help = await runToEnd(`npm run --silent ${script} -- --help`, {});
    assert.equal(help.code, 0, `${script} --help: ${help.stderr}`);
    assert.match(help.stdout, new RegExp(`npm run ${script} --`), `${script} --help prints its usage`);
    const bad = await runToEnd(`npm run --silent ${script} -- ${wrong}`, {});
    assert.equal(bad.code, 2, `${script} ${wrong}: ${bad.stderr}`);
    assert.match(bad.stderr, said);
    assert.doesNotMatch(bad.stderr, /\n\s+at /, `${script} ${wrong} prints no stack trace`);
  }
  // A number option that is no number, or a missing file, is refused before anything starts (no Temporal server, no run).
  for (const [wrong, said] of [
    ['run "Free some disk space." --max-turns abc', /^UsageError: --max-turns is "abc": give a whole number of 1 or more\.$/m],
    ['list --limit x', /^UsageError: --limit is "x": give a whole number of 1 or more\.$/m],
    ['serve --port 99999', /^UsageError: --port is "99999": give a port number/m],
    // A run id where a recording file was expected.
    ['replay run-never-recorded', /^UsageError: No file "run-never-recorded": replay takes a recording file\. Record the run first/m],
  ] as const) {
    const bad = await runToEnd(`npm run --silent agent -- ${wrong}`, {});
    assert.equal(bad.code, 2, `${wrong}: ${bad.stderr}`);
    assert.match(bad.stderr, said);
    assert.doesNotMatch(bad.stderr, /Temporal dev server started/, `${wrong}: refused before starting a server`);
  }
});

test('Ctrl-C on `npm test` stops the Temporal dev server it started and removes its data', { timeout: 120_000 }, async () => {
  // The test runner's own runner, as `npm test` runs it; Ctrl-C reaches its whole process group, not the
  // dev server (a group of its own).
  const tests = spawnGroup(process.execPath, ['test/run.ts', 'test/pure-helpers.test.ts'], {});
  const [, port, dataDir] = await eventually(() => /Temporal dev server for the tests on 127\.0\.0\.1:(\d+) \(db in (\S+)\)/.exec(tests.stderr()) ?? undefined, 'the dev server');
  const serverAlive = () => spawnSync('pgrep', ['-f', `temporal server start-dev .*--port ${port} `]).status === 0;
  assert.ok(serverAlive(), 'the dev server runs');
  process.kill(-tests.child.pid!, 'SIGINT');
  const { code } = await tests.exited;
  assert.equal(code, 130, 'the runner ends as Ctrl-C ends a command');
  await eventually(() => (serverAlive() ? undefined : true), 'the dev server to stop');
  assert.ok(!existsSync(dataDir!), `its data (${dataDir}) is removed`);
});

test('a provider model on a worker with no key: the run fails at once, and `run` prints why', { timeout: 120_000 }, async () => {
  const run = await runToEnd('npm run agent --silent -- run "Which log mentions a timeout?" --model gpt-4o-mini', {
    TEMPORAL_ADDRESS: h.address,
    AGENT_TASK_QUEUE: h.taskQueue,
    AGENT_DATA_DIR: freshDataDir('no-key'),
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
    AGENT_SCRIPTED_MODEL_URL: '',
  });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /status=failed/);
  assert.match(run.stdout, /^error: .*Model "gpt-4o-mini" needs a provider, and this worker has none: set OPENAI_API_KEY .* or use a scripted model with no key \(--model scripted:plan\)/m);
  const runId = /run (run-\S+):/.exec(run.stderr)?.[1];
  assert.ok(runId);
  // Known at once: one attempt, no retries.
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  const attempts = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes || e.markerRecordedEventAttributes).map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 1);
  assert.ok(attempts.length > 0 && attempts.every((a) => a === 1), `attempts ${attempts.join(',')}`);

  // An answer to the run, now that it has ended: a clear refusal, as the HTTP API's 409, not a WorkflowNotFoundError.
  const answer = await runToEnd(`npm run agent --silent -- answer ${runId} "notes.txt"`, { TEMPORAL_ADDRESS: h.address, AGENT_TASK_QUEUE: h.taskQueue, AGENT_DATA_DIR: freshDataDir('answer') });
  assert.equal(answer.code, 1);
  assert.match(answer.stderr, new RegExp(`^AnswerRefusedError: Run ${runId} has ended: it asks nothing any more`));
});

test('an OpenTelemetry collector that is not there: the run completes, and the process says so naming OpenTelemetry', { timeout: 120_000 }, async () => {
  const endpoint = `http://127.0.0.1:${await freeDevServerPort()}`;
  const run = await runToEnd('npm run agent --silent -- run "Which log mentions a timeout?" --model scripted:plan', {
    TEMPORAL_ADDRESS: h.address,
    AGENT_TASK_QUEUE: h.taskQueue,
    AGENT_DATA_DIR: freshDataDir('otlp'),
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /status=completed/);
  assert.ok(run.stderr.includes(`OpenTelemetry: could not export spans to ${endpoint} (OTEL_EXPORTER_OTLP_ENDPOINT): `), run.stderr);
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
});

test("`record` writes where git does not look, and the docs' record command edits no committed file", async () => {
  const ignored = await runToEnd('git check-ignore recordings/run-0000.json recordings/tasks.json', {});
  assert.equal(ignored.code, 0, 'recordings/ is ignored by git');
  const docs = readFileSync(path.join(PROJECT_ROOT, 'docs', 'evaluation.md'), 'utf8');
  const asTask = /record \S+ --as-task (\S+)/.exec(docs)?.[1];
  assert.equal(asTask, 'recordings/tasks.json');
  const tracked = await runToEnd(`git ls-files --error-unmatch ${asTask}`, {});
  assert.notEqual(tracked.code, 0, `${asTask} is not a tracked file`);
});

test('an encrypted run read without its key: list and GET /runs show it, encrypted fields as such; status, GET /runs/:id (403) and a wrong key say what to do', { timeout: 120_000 }, async (t) => {
  const taskQueue = `${h.taskQueue}-sealed`;
  const sealed = new AgentClient(new Client({ connection: h.temporal.connection, dataConverter: agentDataConverter('the team secret') }), { taskQueue });
  // No worker on its queue: the run stays open, its memo (goal, model, limits) encrypted from the start.
  const { runId } = await sealed.startRun({ goal: 'Free some disk space.', model: 'scripted:delete-approval' });
  t.after(() => sealed.cancelRun(runId, 'the test is over'));
  const env = { TEMPORAL_ADDRESS: h.address, AGENT_TASK_QUEUE: taskQueue, AGENT_DATA_DIR: freshDataDir('sealed'), AGENT_PAYLOAD_KEY: '' };

  const list = await runToEnd('npm run agent --silent -- list', env);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, new RegExp(`^${runId}\\s+running\\s.*\\(encrypted: AGENT_PAYLOAD_KEY\\)$`, 'm'));

  const status = await runToEnd(`npm run agent --silent -- status ${runId}`, env);
  assert.equal(status.code, 1);
  assert.match(status.stderr, new RegExp(`^PayloadKeyError: Run ${runId} is encrypted with AGENT_PAYLOAD_KEY \\(key id \\w+\\), which this process does not have: set the key its workers use to read its state\\. In clear text: status running`));
  assert.doesNotMatch(status.stderr, /^\s+at /m, 'no stack trace');

  const wrongKey = await runToEnd(`npm run agent --silent -- status ${runId}`, { ...env, AGENT_PAYLOAD_KEY: 'not the team secret' });
  assert.equal(wrongKey.code, 1);
  assert.match(wrongKey.stderr, /^PayloadKeyError: The run's payloads were encrypted with another AGENT_PAYLOAD_KEY \(key id \w+; this one's is \w+\): set the key its workers use\./);
  assert.doesNotMatch(wrongKey.stderr, /^\s+at /m, 'no stack trace');

  const port = await freeDevServerPort();
  const serve = spawnGroup('npm', ['run', 'agent', '--silent', '--', 'serve', '--no-worker'], { ...env, AGENT_HTTP_PORT: String(port) });
  t.after(() => {
    if (groupAlive(serve.child.pid!)) process.kill(-serve.child.pid!, 'SIGKILL');
  });
  await eventually(() => serve.stdout().includes('Ctrl-C stops it') || (serve.child.exitCode !== null && Promise.reject(new Error(serve.stderr()))), 'serve to be up', 60_000);
  const response = await fetch(`http://127.0.0.1:${port}/runs`);
  assert.equal(response.status, 200, await response.clone().text());
  const { runs } = (await response.json()) as { runs: { runId: string; status: string; goal: string; model: string }[] };
  const listed = runs.find((r) => r.runId === runId);
  assert.deepEqual(listed && { status: listed.status, goal: listed.goal, model: listed.model }, { status: 'running', goal: '(encrypted: AGENT_PAYLOAD_KEY)', model: '(encrypted: AGENT_PAYLOAD_KEY)' });
  // Its state: no key here, so a 403 that names the key and what is in clear text, not a 500.
  const detail = await fetch(`http://127.0.0.1:${port}/runs/${runId}`);
  const detailBody = (await detail.json()) as { error: string; message: string };
  assert.equal(detail.status, 403, JSON.stringify(detailBody));
  assert.equal(detailBody.error, 'forbidden');
  assert.match(detailBody.message, new RegExp(`^Run ${runId} is encrypted with AGENT_PAYLOAD_KEY \\(key id \\w+\\), which this process does not have: .* In clear text: status running`));
  process.kill(-serve.child.pid!, 'SIGINT');
  await serve.exited;
});

test("an MCP server that crashes at start: its error quotes the crash's reason, not the tail of its stack", async () => {
  // A real stdio server's stderr as Node writes it when its file is missing.
  const crash = await runToEnd(`"${process.execPath}" /nonexistent/mcp-server.js`, {});
  assert.notEqual(crash.code, 0);
  assert.match(crash.stderr, /^\s+at /m, 'Node printed a stack');
  assert.equal(stderrExcerpt(crash.stderr.slice(-STDERR_TAIL_CHARS)), "Error: Cannot find module '/nonexistent/mcp-server.js'");
  // Without an error line: the last lines that are not stack frames.
  assert.equal(stderrExcerpt('listening on stdio\nconfig missing: TICKETS_TOKEN\n    at main (server.js:3:9)\n\nNode.js v22.18.0\n'), 'listening on stdio | config missing: TICKETS_TOKEN');
});
