/**
 * The workflow's trace lines, written to the store from the worker's sink (also during replay: see sinks()).
 * Each line carries a sequence number from the workflow and the store keeps (runId, seq) unique, so a
 * workflow task retried on another host never duplicates a line; with each line goes the task that
 * wrote it, so the lines of a task Temporal refused give way to its replacement's (store/trace-tasks.ts).
 * A line new to the store is also appended to the run's live event stream (SSE clients), in the same
 * transaction: a worker dying between the two would otherwise leave a stored line that no retried task
 * publishes again (to the store it is not new), and the stream would never carry it. The sink is
 * awaited before the task completes, so a run's lines are in the store once the task that emitted them
 * has completed (a reader of a closed run sees them all); a line the store could not take (an outage) is
 * kept and written again on the run's next line or within a second, so a short outage delays the trace
 * instead of losing it.
 *
 * The line that closes an execution (`run_stopped`, `continued_as_new`) is different: a closed execution is
 * never replayed, so lines still waiting in this process when it dies would be lost for good. Its sink call
 * therefore returns only once the run's lines are all stored, and since the SDK awaits sink calls before it
 * sends the activation's completion, the execution does not close before its trace is durable. During a
 * store outage the closing task waits (Temporal times it out and another worker may replay it, writing the
 * same lines); the wait ends when the store is back, 10 s after the worker starts shutting down, or after
 * `closingWaitMs`. A run failed for the outage itself (`store_unavailable`) does not wait.
 *
 * Lines are written in order per run, one run's queue independent of the others': many workflows' sinks
 * call `write` concurrently, and one run's task does not wait behind another run's store writes.
 */
import type { InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { TraceTask } from '../store/trace-tasks.ts';
import type { AgentStore, TraceWrite } from '../store/store.ts';
import type { TraceLine, TraceSinks } from '../wire/trace-events.ts';

const RETRY_EVERY_MS = 1000;
/** How long an execution's closing task waits for the store before it closes without its last lines. */
const CLOSING_WAIT_MS = 10 * 60_000;
/** How long a closing task still waits once the worker is shutting down (a shutdown must not hang on an outage). */
const CLOSING_WAIT_WHEN_STOPPING_MS = 10_000;

/**
 * Whether `line` closes its execution (it is never replayed again) and the close waits for the store. A run
 * that stopped *because* the store stayed down longer than it allows (`limits.maxStoreOutageMs`) closes at
 * once: it has waited all it may, and its lines stay queued here until the store is back.
 */
function closesWaitingForStore(line: TraceLine): boolean {
  if (line.type === 'continued_as_new') return true;
  return line.type === 'run_stopped' && line.reason !== 'store_unavailable';
}

/** One run's lines not yet fully written, and its flushes (one at a time, in order). */
interface RunQueue {
  pending: TraceWrite[];
  flushing: Promise<void>;
  /** A retry is scheduled (the store refused a write). */
  retry: NodeJS.Timeout | null;
}

export class TraceSink {
  private readonly store: AgentStore;
  /** Runs with lines in flight or waiting for the store; a run's entry goes once its queue is empty. */
  private readonly runs = new Map<string, RunQueue>();
  private readonly warn: (message: string) => void;
  private closed = false;
  private readonly closingWaitMs: number;
  /** Whether the worker is shutting down (set by the worker once it exists). */
  private stopping: () => boolean = () => false;

  constructor(store: AgentStore, warn: (message: string) => void = (m) => console.warn(m), options: { closingWaitMs?: number } = {}) {
    this.store = store;
    this.warn = warn;
    this.closingWaitMs = options.closingWaitMs ?? CLOSING_WAIT_MS;
  }

  /**
   * The workflow's `trace` sink, writing each line with the task that emitted it. Called during replay
   * too: a line the store refused (an outage) waits in this process only, and its task completes without
   * it, so a worker that dies meanwhile takes the line with it; the worker that takes the run over replays
   * it and writes the line then. A line already stored costs one conflicting insert (same seq, same task).
   */
  sinks(): InjectedSinks<TraceSinks> {
    const emit = (info: WorkflowInfo, line: TraceLine) => this.write(line, { runStartMs: info.runStartTime.getTime(), historyLength: info.historyLength });
    return { trace: { emit: { fn: emit, callDuringReplay: true } } };
  }

  write(line: TraceLine, task?: TraceTask): Promise<void> {
    let queue = this.runs.get(line.runId);
    if (!queue) {
      queue = { pending: [], flushing: Promise.resolve(), retry: null };
      this.runs.set(line.runId, queue);
    }
    queue.pending.push(task ? { line, task } : { line });
    const flushed = this.flush(line.runId, queue);
    return closesWaitingForStore(line) ? this.allStored(line.runId, queue) : flushed;
  }

  /** `stopping` tells whether the worker is shutting down: a closing task then waits at most 10 s more. */
  watchShutdown(stopping: () => boolean): void {
    this.stopping = stopping;
  }

  /** Resolves once the run's lines are all in the store (retried every second), the sink is closed, or the closing wait is over. */
  private async allStored(runId: string, queue: RunQueue): Promise<void> {
    let deadline = Date.now() + this.closingWaitMs;
    for (;;) {
      await queue.flushing;
      if (!queue.pending.length) return;
      const stopping = this.closed || this.stopping();
      if (stopping) deadline = Math.min(deadline, Date.now() + CLOSING_WAIT_WHEN_STOPPING_MS);
      if (this.closed || Date.now() >= deadline) {
        this.warn(`the run ${runId} closes without ${queue.pending.length} trace line(s): the store did not take them ${stopping ? 'before the worker stopped' : `within ${Math.round(this.closingWaitMs / 1000)} s`}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
      if (queue.pending.length && !queue.retry) await this.flush(runId, queue);
    }
  }

  /** Lines waiting for the store (an outage), over all runs. */
  get pendingLines(): number {
    let n = 0;
    for (const queue of this.runs.values()) n += queue.pending.length;
    return n;
  }

  private flush(runId: string, queue: RunQueue): Promise<void> {
    queue.flushing = queue.flushing.then(() => this.drain(runId, queue));
    return queue.flushing;
  }

  /**
   * Writes the run's pending lines, in order, those of one activation (the SDK makes its sink calls
   * together) in one transaction; stops at a failure and tries them again later.
   */
  private async drain(runId: string, queue: RunQueue): Promise<void> {
    const { pending } = queue;
    while (pending.length) {
      const lines = pending.slice();
      try {
        // A line already in the store (a retried task) is not an event again.
        await this.store.publishTrace(runId, lines);
        pending.splice(0, lines.length);
      } catch (error) {
        if (!queue.retry) this.warn(`trace lines of ${runId} wait for the store (${pending.length} pending): ${(error as Error).message}`);
        if (!this.closed) {
          queue.retry ??= setTimeout(() => {
            queue.retry = null;
            void this.flush(runId, queue);
          }, RETRY_EVERY_MS);
        }
        return;
      }
    }
    // Nothing left: forget the run (a later line starts a new queue). A line written meanwhile is in
    // `pending` and would have kept the queue, since it is drained by a flush chained after this one.
    if (!queue.retry && this.runs.get(runId) === queue) this.runs.delete(runId);
  }

  /** Stops retrying; lines still pending are lost with the process (as they would be in a crash). */
  close(): void {
    this.closed = true;
    for (const queue of this.runs.values()) {
      if (queue.retry) clearTimeout(queue.retry);
      queue.retry = null;
    }
  }
}
