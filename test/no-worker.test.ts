/**
 * A waiting run is readable and decidable with no worker alive: its state comes from the memo the run
 * keeps current (queries need a worker), and the CLI approves it — the decision waits in Temporal. And
 * with no Temporal at the address a command is given, it says so at once.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PROJECT_ROOT } from '../src/paths.ts';
import { freeDevServerPort } from '../src/temporal/temporal-server.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness('no-worker');
});
after(() => h.replayAndClose());

test('with every worker stopped, the state and the pending approval are read from the memo, and the CLI approves it', async () => {
  writeFileSync(path.join(h.workspace, 'access.log'), 'old\n');
  const { runId } = await h.agents.startRun({ goal: 'Free some disk space.', model: 'scripted:delete-approval', workspace: h.workspace });
  const live = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  await h.stopWorker();

  const state = await h.agents.getState(runId);
  assert.equal(state.status, 'waiting_approval');
  assert.match(state.progress ?? '', /^no worker answered/);
  assert.deepEqual(state.pending, live.pending, 'the pending call, its redacted arguments and hash, as the run recorded them');
  assert.equal(state.turns, 2);
  const pending = await h.agents.pendingApproval(runId);
  assert.equal(pending?.argsHash, live.pending?.kind === 'approval' ? live.pending.argsHash : undefined);

  const cli = await runCli(['approve', runId, '--yes', '--no-wait']);
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /approved t2\.1 \(sent as a signal/);
  const loaded = /^loaded packages: (.*)$/m.exec(cli.stderr)?.[1]?.split(' ') ?? [];
  assert.ok(loaded.includes('@temporalio/client'), `the report of loaded packages: ${cli.stderr}`);
  assert.ok(!loaded.includes('@temporalio/worker') && !loaded.includes('openai'), `a command without a worker loads no worker code: ${loaded.join(' ')}`);
  assert.ok(existsSync(path.join(h.workspace, 'access.log')), 'nothing happens until a worker runs');

  await h.startWorker();
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed');
  assert.ok(!existsSync(path.join(h.workspace, 'access.log')));

  // An ended run has nothing to cancel, and a run id that never was has no result: each said plainly.
  const cancel = await runCli(['cancel', runId]);
  assert.equal(cancel.code, 1);
  assert.match(cancel.stderr, new RegExp(`^Run ${runId} has already ended \\(completed\\): nothing to cancel\\. Its outcome: npm run agent -- result ${runId}$`, 'm'));
  const unknown = await runCli(['result', 'run-never-started']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^RunNotFoundError: No run with id "run-never-started"\. List the runs/m);
});

test('a command pointed at an address where nothing listens fails at once, saying where and what to do', async () => {
  const address = `127.0.0.1:${await freeDevServerPort()}`;
  const cli = await runCli(['list'], { TEMPORAL_ADDRESS: address });
  assert.equal(cli.code, 1);
  assert.ok(cli.stderr.startsWith(`TemporalUnreachableError: Nothing answers at ${address} (TEMPORAL_ADDRESS): connect ECONNREFUSED`), cli.stderr);
  assert.match(cli.stderr, /point TEMPORAL_ADDRESS at a running server/);
});

function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const preload = path.join(PROJECT_ROOT, 'test', 'fixtures', 'report-loaded-packages.ts');
    const child = spawn(process.execPath, ['--import', preload, path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), ...args], {
      env: { ...process.env, AGENT_TASK_QUEUE: h.taskQueue, AGENT_DATA_DIR: h.dataDir, TEMPORAL_LOG_LEVEL: 'ERROR', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
