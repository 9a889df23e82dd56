/**
 * The workflow's trace lines, written to the store from the worker's sink (never called during replay).
 * Each line carries a sequence number from the workflow and the store keeps (runId, seq) unique, so a
 * workflow task retried on another host never duplicates a line. A line new to the store is also
 * appended to the run's live event stream (SSE clients). The sink is awaited before the task completes;
 * a line the store could not take (an outage) is kept and written again on the next line or within a
 * second, so a short outage delays the trace instead of losing it.
 */
import type { AgentStore } from '../store/store.ts';
import type { TraceLine } from '../wire/trace-events.ts';

const RETRY_EVERY_MS = 1000;

interface Pending {
  line: TraceLine;
  /** The trace row is written; the event (if the line was new) is what remains. */
  traced: boolean;
}

export class TraceSink {
  private readonly store: AgentStore;
  private readonly pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Flushes run one at a time (many workflows' sinks call write concurrently). */
  private flushing: Promise<void> = Promise.resolve();
  private readonly warn: (message: string) => void;

  constructor(store: AgentStore, warn: (message: string) => void = (m) => console.warn(m)) {
    this.store = store;
    this.warn = warn;
  }

  write(line: TraceLine): Promise<void> {
    this.pending.push({ line, traced: false });
    return this.flush();
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.drain());
    return this.flushing;
  }

  /** Writes what is pending, in order; stops at the first failure and tries again later. */
  private async drain(): Promise<void> {
    while (this.pending.length) {
      const next = this.pending[0]!;
      try {
        if (!next.traced) {
          // A line already in the store (a retried task) is not an event again.
          const isNew = await this.store.appendTrace(next.line);
          next.traced = true;
          if (!isNew) {
            this.pending.shift();
            continue;
          }
        }
        await this.store.appendEvent(next.line.runId, next.line);
        this.pending.shift();
      } catch (error) {
        if (!this.timer) this.warn(`trace lines wait for the store (${this.pending.length} pending): ${(error as Error).message}`);
        this.timer ??= setTimeout(() => {
          this.timer = null;
          void this.flush();
        }, RETRY_EVERY_MS);
        return;
      }
    }
  }

  /** Stops retrying; lines still pending are lost with the process (as they would be in a crash). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
