/** Trajectory evaluation: the shipped task set passes; broken expectations and false claims are named. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runEval } from '../src/cli/eval/run-eval.ts';
import { loadTaskFile, type EvalTask } from '../src/cli/eval/task-file.ts';
import { renderReport } from '../src/cli/eval/report.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness('eval');
});
after(() => h.replayAndClose());

function evalOptions() {
  return {
    model: 'scripted:qa',
    concurrency: 4,
    workspaceFor: (task: EvalTask) => {
      const dir = path.join(h.dataDir, 'eval', task.name.replace(/\W+/g, '_'));
      mkdirSync(dir, { recursive: true });
      cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), dir, { recursive: true });
      return dir;
    },
    readTrace: (runId: string) => h.trace(runId),
  };
}

test('eval/tasks.json: the seed questions and the scenario tasks all pass', async () => {
  const tasks = loadTaskFile(path.join(PROJECT_ROOT, 'eval', 'tasks.json'));
  const report = await runEval(h.agents, tasks, evalOptions());
  const failures = report.tasks.filter((t) => !t.resultOk || !t.trajectoryOk).map((t) => `${t.name}: ${t.broken.join('; ')}`);
  assert.deepEqual(failures, []);
  assert.equal(report.totals.passed, tasks.length);
  const table = renderReport(report);
  assert.match(table, /^task +turns +tools +wall ms +cost +status +result +trajectory +warnings +first broken expectation/);
  assert.match(table, /TOTAL turns=\d+ +toolruns=\d+ +wall=[\d,]+ms +cost=\$[\d.]+ +mean turn=[\d,]+ms +warnings=0 +passed=\d+\/\d+/);
  assert.deepEqual(report.tasks.flatMap((t) => t.warnings), [], 'no true answer is flagged');
  const approved = report.tasks.find((t) => t.name === 'delete approved')!;
  assert.match(approved.receipt, /^done: delete_file access\.log$/);
  const rejected = report.tasks.find((t) => t.name === 'delete rejected without a reason')!;
  assert.match(rejected.receipt, /^rejected: delete_file access\.log \(no reason\)$/);
});

test('a claimed deletion that never happened is flagged, and the table shows the warning', async () => {
  const tasks = loadTaskFile(path.join(PROJECT_ROOT, 'test', 'fixtures', 'false-claim-tasks.yaml'));
  const evalReport = await runEval(h.agents, tasks, evalOptions());
  const [report] = evalReport.tasks;
  assert.equal(report!.resultOk, true, 'the answer alone looks fine');
  assert.equal(report!.trajectoryOk, false);
  assert.equal(report!.receipt, 'rejected: delete_file access.log (not now)');
  assert.deepEqual(report!.warnings, ['delete_file access.log: "Deleted access.log to free space." — receipt: rejected: delete_file access.log (not now)']);
  assert.equal(report!.broken[0], `claim: ${report!.warnings[0]}`);
  const table = renderReport(evalReport);
  assert.match(table, /claims a deletion it never made .* completed +✓ +✗ +1 +claim: delete_file access\.log/);
  assert.match(table, /warnings=1 /);
  assert.match(table, /claim warnings .*\n +claims a deletion it never made\n +! delete_file access\.log: "Deleted access\.log to free space\." — receipt: rejected: delete_file access\.log \(not now\)\n +receipt: rejected: delete_file access\.log \(not now\)/);
});

/** `npm run eval -- <args>` in a child process with a data directory of its own. */
async function evalCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-eval-cli-'));
  try {
    return await new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'src', 'cli', 'eval', 'main.ts'), ...args], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, AGENT_DATA_DIR: dataDir, AGENT_TASK_QUEUE: `eval-cli-${Date.now()}`, TEMPORAL_LOG_LEVEL: 'ERROR', ...env },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.on('exit', (exitCode) => resolve({ code: exitCode, stdout: out }));
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('npm run eval on a task file with a broken expectation exits 1 and names it', async () => {
  const { code, stdout } = await evalCli([path.join('test', 'fixtures', 'broken-tasks.json')]);
  assert.equal(code, 1);
  assert.match(stdout, /plan +3 +2 .* completed +✓ +✓/);
  assert.match(stdout, /expects a tool that does not run .* completed +✓ +✗ +0 +toolsRun: delete_file did not run/);
  assert.match(stdout, /passed=1\/2/);
});

test('npm run eval --api responses: a task passes with every model call over /v1/responses', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-eval-responses-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const goal = 'Which log file mentions a timeout? (eval over the Responses wire)';
  const file = path.join(dir, 'tasks.json');
  writeFileSync(file, JSON.stringify({ tasks: [{ name: 'plan on responses', goal, model: 'scripted:plan', expect: { answer: 'worker 7 timed out', toolsRun: ['list_files', 'read_file'], maxTurns: 3 } }] }));
  // The eval's worker plays its scripted models on this file's server, so the test sees what it was asked.
  const { code, stdout } = await evalCli([file, '--api', 'responses'], { AGENT_SCRIPTED_MODEL_URL: h.scripted.baseUrl });
  assert.equal(code, 0, stdout);
  assert.match(stdout, /plan on responses +3 +2 .* completed +✓ +✓/);
  const asked = h.scripted.requests.filter((r) => r.messages.some((m) => m.content === goal));
  assert.deepEqual(asked.map((r) => [r.wire ?? 'chat', r.reasoningItemsSent]), [['responses', 0], ['responses', 1], ['responses', 2]]);
});
