/**
 * A worker host for the cluster tests: the worker `node src/cli/cli.ts worker` runs (same environment:
 * TEMPORAL_ADDRESS, AGENT_TASK_QUEUE, AGENT_DATA_DIR, AGENT_WORKSPACE, AGENT_STORE_URL,
 * AGENT_SCRIPTED_MODEL_URL), whose side-effect tools can be held at a chosen point so that a test can
 * SIGKILL the host there:
 *
 *   AGENT_TEST_HOLD=delete_file:before-complete,send_message:after-done
 *   AGENT_TEST_HOLD_DIR=<dir>
 *
 * - `before-complete`: the tool has acted and calls the ledger's completeEffect; the call writes
 *   `<dir>/<tool>.before-complete.json` ({key, outcome}) and never returns, so the ledger entry stays
 *   `started` — the host dies between the effect and its record.
 * - `after-done`: the tool has acted and its ledger entry is `done`; its result is withheld forever
 *   after writing `<dir>/<tool>.after-done.json` ({key, outcome}) — the host dies before the activity
 *   completes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { dataDir, TASK_QUEUE } from '../../src/paths.ts';
import { demoWorkspace } from '../../src/cli/runtime.ts';
import { quietTemporalLogs } from '../../src/worker/temporal-logs.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { EffectLedger } from '../../src/store/store.ts';
import type { Tool } from '../../src/tools/define-tool.ts';
import { builtinTools } from '../../src/tools/registry.ts';
import { createAgentWorker } from '../../src/worker/worker.ts';
import { workspaceRoots } from '../../src/tools/workspace-roots.ts';

type HoldPoint = 'before-complete' | 'after-done';

const holds = new Map<string, HoldPoint>(
  (process.env.AGENT_TEST_HOLD ?? '')
    .split(',')
    .filter(Boolean)
    .map((spec) => {
      const [tool, point] = spec.split(':');
      if (!tool || (point !== 'before-complete' && point !== 'after-done')) throw new Error(`AGENT_TEST_HOLD: bad entry "${spec}"`);
      return [tool, point];
    }),
);
const holdDir = process.env.AGENT_TEST_HOLD_DIR;
if (holds.size && !holdDir) throw new Error('AGENT_TEST_HOLD needs AGENT_TEST_HOLD_DIR');

/** Tells the test where the host is held, then never settles. */
function hold(tool: string, point: HoldPoint, detail: { key: string; outcome: string }): Promise<never> {
  writeFileSync(path.join(holdDir!, `${tool}.${point}.json`), JSON.stringify({ ...detail, pid: process.pid }));
  return new Promise<never>(() => {});
}

/** The store's ledger, with completeEffect held for the tools named `before-complete`. */
function holdingLedger(ledger: EffectLedger): EffectLedger {
  const toolOf = new Map<string, string>();
  return {
    async beginEffect(key, tool, detail) {
      toolOf.set(key, tool);
      return ledger.beginEffect(key, tool, detail);
    },
    async completeEffect(key, outcome) {
      const tool = toolOf.get(key);
      if (tool && holds.get(tool) === 'before-complete') return hold(tool, 'before-complete', { key, outcome });
      return ledger.completeEffect(key, outcome);
    },
    lookupEffect: (key) => ledger.lookupEffect(key),
  };
}

/** The built-in tools on that ledger, with the results of the tools named `after-done` withheld. */
function holdingTools(ledger: EffectLedger): Tool[] {
  return builtinTools(holdingLedger(ledger)).map((tool) =>
    holds.get(tool.name) === 'after-done'
      ? {
          ...tool,
          async run(args, ctx) {
            const outcome: unknown = await tool.run(args, ctx);
            return hold(tool.name, 'after-done', { key: ctx.idempotencyKey, outcome: String(outcome) });
          },
        }
      : tool,
  );
}

quietTemporalLogs();
const address = process.env.TEMPORAL_ADDRESS;
const scriptedModelUrl = process.env.AGENT_SCRIPTED_MODEL_URL;
if (!address || !scriptedModelUrl) throw new Error('cluster-worker needs TEMPORAL_ADDRESS and AGENT_SCRIPTED_MODEL_URL');
const dir = dataDir();
const connection = await NativeConnection.connect({ address });
const store = await openStore({ dataDir: dir });
const worker = await createAgentWorker({
  connection,
  dataDir: dir,
  store,
  workspace: demoWorkspace(),
  workspaceRoots: workspaceRoots(),
  scriptedModel: { baseUrl: scriptedModelUrl },
  tools: holdingTools(store),
});
const stopped = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});
const running = worker.run(stopped);
console.error(`Worker polling task queue "${TASK_QUEUE}" on ${address} (holding ${[...holds].map(([t, p]) => `${t}:${p}`).join(', ') || 'nothing'}).`);
await running;
await store.close();
await connection.close();
