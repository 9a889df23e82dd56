/** A real worker process (`node src/cli.ts worker`), to be killed with SIGKILL. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';
import type { Harness } from './harness.ts';

export interface WorkerProcess {
  child: ChildProcess;
  kill(): Promise<void>;
}

export async function spawnWorker(h: Harness, address: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'src', 'cli.ts'), 'worker'], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: address,
      AGENT_TASK_QUEUE: h.taskQueue,
      AGENT_DATA_DIR: h.dataDir,
      AGENT_WORKSPACE: h.workspace,
      AGENT_SCRIPTED_MODEL_URL: h.scripted.baseUrl,
      TEMPORAL_LOG_LEVEL: 'ERROR',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Worker polling task queue')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
