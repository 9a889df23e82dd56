/**
 * Starts planned runs (at most `concurrency` open at once, or at a steady rate), answers their approvals
 * as an automatic approver would (over HTTP with the approver's token, or through AgentClient), and
 * waits for their results through whatever the chaos driver does to the server meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunResult } from '../../src/wire/types.ts';
import type { PlannedRun } from './mix.ts';
import { APPROVER, type Shape } from './shape.ts';

export interface TrackedRun extends PlannedRun {
  runId: string;
  startedAt: number;
  finishedAt?: number;
  result?: RunResult;
  /** The approval this run was sent (call key and who decided), once the run took it. */
  decided?: { callKey: string; by: string };
  /** The last error met waiting for it (a failed result() during a restart), for the report. */
  lastError?: string;
}

export const CLIENT_APPROVER = 'client-approver';

export class Runner {
  readonly runs: TrackedRun[] = [];
  private stopped = false;
  private readonly approving: Promise<void>;

  private readonly shape: Shape;

  constructor(shape: Shape) {
    this.shape = shape;
    this.approving = this.approveLoop();
  }

  /** Starts `runs`, keeping at most `concurrency` open; resolves when all have finished or `deadline` passed. */
  async burst(runs: PlannedRun[], concurrency: number, deadline: number): Promise<TrackedRun[]> {
    const queue = [...runs];
    const mine: TrackedRun[] = [];
    const lane = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const tracked = await this.start(next, deadline);
        mine.push(tracked);
        await this.finish(tracked, deadline);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, runs.length) }, lane));
    return mine;
  }

  /** Starts one of `runs` every `everyMs`, until `until`; resolves when every started run has finished (or `deadline`). */
  async steady(next: () => PlannedRun, everyMs: number, until: number, deadline: number): Promise<TrackedRun[]> {
    const waits: Promise<void>[] = [];
    const mine: TrackedRun[] = [];
    while (Date.now() < until) {
      const tick = Date.now();
      const tracked = await this.start(next(), deadline);
      mine.push(tracked);
      waits.push(this.finish(tracked, deadline));
      await sleep(Math.max(0, everyMs - (Date.now() - tick)));
    }
    await Promise.all(waits);
    return mine;
  }

  async close(): Promise<void> {
    this.stopped = true;
    await this.approving;
  }

  private async start(planned: PlannedRun, deadline: number): Promise<TrackedRun> {
    const startedAt = Date.now();
    const runId = `chaos-${planned.goal.replace(/^.*\[(.+)\]$/, '$1')}`;
    // A start that fails in a server restart is sent again with the same id: the second is refused if the first got through.
    for (;;) {
      try {
        await this.shape.agents.startRun(planned.input, { runId });
        break;
      } catch (error) {
        if ((error as Error).name === 'WorkflowExecutionAlreadyStartedError') break;
        if (Date.now() > deadline) throw error;
        await sleep(1000);
      }
    }
    const tracked: TrackedRun = { ...planned, runId, startedAt };
    this.runs.push(tracked);
    return tracked;
  }

  private async finish(run: TrackedRun, deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      try {
        run.result = await this.shape.agents.result(run.runId);
        run.finishedAt = Date.now();
        return;
      } catch (error) {
        run.lastError = (error as Error).message;
        await sleep(1000);
      }
    }
  }

  /**
   * Every 500 ms: each run that waits for an approval and has not had it gets the decision its plan says
   * (one decision in flight per run: an update waits while no worker can take it).
   */
  private async approveLoop(): Promise<void> {
    const inFlight = new Map<string, Promise<void>>();
    while (!this.stopped) {
      for (const run of this.runs.filter((r) => r.decision && !r.decided && !r.result && !inFlight.has(r.runId))) {
        const deciding = this.decide(run)
          .catch((error: unknown) => void (run.lastError = `approver: ${(error as Error).message}`))
          .finally(() => inFlight.delete(run.runId));
        inFlight.set(run.runId, deciding);
      }
      await sleep(500);
    }
    await Promise.race([Promise.all(inFlight.values()), sleep(10_000)]);
  }

  private async decide(run: TrackedRun): Promise<void> {
    if (run.channel === 'client') {
      const pending = await this.shape.agents.pendingApproval(run.runId);
      if (!pending) return;
      if (run.decision === 'approve') await this.shape.agents.approve(run.runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: CLIENT_APPROVER });
      else await this.shape.agents.reject(run.runId, { callKey: pending.callKey, reason: 'not during chaos', by: CLIENT_APPROVER });
      run.decided = { callKey: pending.callKey, by: CLIENT_APPROVER };
      return;
    }
    const headers = { authorization: `Bearer ${APPROVER.token}`, 'content-type': 'application/json' };
    const state = await fetch(`${this.shape.http.url}/runs/${run.runId}`, { headers: { authorization: headers.authorization } });
    if (!state.ok) throw new Error(`GET /runs/${run.runId}: ${state.status} ${await state.text()}`);
    const pending = ((await state.json()) as { pending?: { kind: string; callKey: string; argsHash: string } | null }).pending;
    if (pending?.kind !== 'approval') return;
    const body = run.decision === 'approve' ? { decision: 'approve', argsHash: pending.argsHash } : { decision: 'reject', reason: 'not during chaos' };
    const response = await fetch(`${this.shape.http.url}/runs/${run.runId}/approvals/${encodeURIComponent(pending.callKey)}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`POST approval of ${run.runId}: ${response.status} ${await response.text()}`);
    run.decided = { callKey: pending.callKey, by: APPROVER.name };
  }
}
