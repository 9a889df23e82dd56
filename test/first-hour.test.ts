/**
 * A newcomer's first hour (issue 38), each surprise found then, as a test that a real process meets:
 * Ctrl-C on `run` (a real SIGINT to the process group, as a terminal sends it) …
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PROJECT_ROOT } from '../src/paths.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness('first-hour');
  // The processes these tests start are the only workers on the harness's task queue (its runs are replayed at the end).
  await h.stopWorker();
});
after(() => h.replayAndClose());

/** A CLI process in its own process group (as a terminal runs it), with its output collected. */
interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnGroup(command: string, args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

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
