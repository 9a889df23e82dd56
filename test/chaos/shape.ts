/**
 * The production shape the chaos and soak runs drive: the real Temporal server v1.29.1 on its PostgreSQL
 * (test/helpers/temporal-cluster.ts), the PostgreSQL store on a PostgreSQL of its own (so either can be
 * stopped alone), three worker processes (`node src/cli/cli.ts worker`, as deployed), the scripted model
 * server, and the HTTP API (with an approver token) over a client and the store.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { AgentClient } from '../../src/client/client.ts';
import { agentDataConverter } from '../../src/client/payload-codec.ts';
import { buildHttpApp, type HttpApp } from '../../src/http/app.ts';
import { Authenticator } from '../../src/http/auth.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { startScriptedModelServer, type ScriptedModelServer } from '../../src/scripted-model/server.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { AgentStore } from '../../src/store/store.ts';
import { startPostgres, type PostgresServer } from '../../src/store/throwaway-postgres.ts';
import { startHost, type Host } from '../helpers/cluster-hosts.ts';
import { startTemporalCluster, type TemporalCluster } from '../helpers/temporal-cluster.ts';

export const APPROVER = { name: 'alice', token: 'chaos-approver-token-01' };

export interface Shape {
  cluster: TemporalCluster;
  storePg: PostgresServer;
  storeUrl: string;
  store: AgentStore;
  scripted: ScriptedModelServer;
  agents: AgentClient;
  http: { app: HttpApp; url: string };
  /** Where every run's workspace is made (the workers' AGENT_WORKSPACE_ROOTS). */
  workspaceRoot: string;
  workers: WorkerSlot[];
  /** SIGKILLs slot `i`'s worker and starts another in its place; resolves with the kill's time once the new one polls. */
  killAndRestart(i: number): Promise<number>;
  close(): Promise<void>;
}

export interface WorkerSlot {
  host: Host;
  /** Hosts this slot had before (killed), disposed at close. */
  dead: Host[];
  /** Killed, its replacement not polling yet. */
  restarting: boolean;
}

const TASK_QUEUE = 'chaos';

export async function startShape(options: { workers: number; log: (line: string) => void }): Promise<Shape> {
  const { log } = options;
  const cluster = await startTemporalCluster({ log });
  const storePg = await startPostgres();
  await storePg.createDatabase('agent');
  const storeUrl = storePg.url('agent');
  const scratch = mkdtempSync(path.join(tmpdir(), 'agent-chaos-'));
  const workspaceRoot = path.join(scratch, 'workspaces');
  const store = await openStore({ url: storeUrl, dataDir: scratch });
  const scripted = await startScriptedModelServer({ scenarioDirs: [path.join(PROJECT_ROOT, 'test', 'chaos', 'scenarios'), path.join(PROJECT_ROOT, 'test', 'scenarios')] });
  const connection = await Connection.connect({ address: cluster.address });
  const temporal = new Client({ connection, dataConverter: agentDataConverter() });
  const agents = new AgentClient(temporal, { taskQueue: TASK_QUEUE, workspaceRoots: [workspaceRoot] });
  const app = await buildHttpApp({ agents, store, auth: new Authenticator({ tokens: [{ ...APPROVER, roles: ['approver'] }] }), codec: null });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const http = { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };

  let started = 0;
  const newHost = async (): Promise<Host> => {
    // A worker cannot start while the Temporal server is down (a restart in progress): try again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await startHost({
          name: `worker-${++started}`,
          taskQueue: TASK_QUEUE,
          address: cluster.address,
          storeUrl,
          scriptedModelUrl: scripted.baseUrl,
          env: { AGENT_WORKSPACE_ROOTS: workspaceRoot },
        });
      } catch (error) {
        if (attempt >= 30) throw error;
        log(`a worker did not start (attempt ${attempt}): ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  };
  const workers: WorkerSlot[] = [];
  for (let i = 0; i < options.workers; i++) workers.push({ host: await newHost(), dead: [], restarting: false });
  log(`${options.workers} workers polling task queue "${TASK_QUEUE}"; store on its own PostgreSQL at ${storePg.host}:${storePg.port}.`);

  return {
    cluster,
    storePg,
    storeUrl,
    store,
    scripted,
    agents,
    http,
    workspaceRoot,
    workers,
    async killAndRestart(i) {
      const slot = workers[i]!;
      const killedAt = Date.now();
      slot.restarting = true;
      try {
        await slot.host.kill();
        slot.dead.push(slot.host);
        slot.host = await newHost();
      } finally {
        slot.restarting = false;
      }
      return killedAt;
    },
    async close() {
      // Every worker's stderr (its last 20,000 characters), for what a failed check needs explained.
      const logs = path.join(PROJECT_ROOT, '.data', 'test-artifacts', `chaos-workers-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      mkdirSync(logs, { recursive: true });
      for (const host of workers.flatMap((slot) => [slot.host, ...slot.dead])) writeFileSync(path.join(logs, `${host.name}.log`), host.stderr());
      log(`workers' stderr in ${path.relative(PROJECT_ROOT, logs)}`);
      await Promise.all(workers.flatMap((slot) => [slot.host, ...slot.dead]).map((h) => h.dispose()));
      await app.close();
      await connection.close();
      await scripted.close();
      await store.close();
      await storePg.destroy();
      await cluster.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
