/**
 * Delivery of run events to subscribers, shared by both stores. A store only says "something may have
 * been appended to run X" (`notify`) or "to any run" (`notifyAll`, after a lost connection or a change
 * seen by polling); each subscription then reads the events after the last one it delivered, so every
 * listener gets each event once, in id order, however notifications are duplicated, merged or lost.
 */
import type { EventListener, StoredEvent, SubscribeOptions, Unsubscribe } from './store.ts';

type ReadEvents = (runId: string, afterId: number) => Promise<StoredEvent[]>;

class Subscription {
  readonly runId: string;
  private readonly listener: EventListener;
  private readonly onError: ((error: unknown) => void) | undefined;
  private readonly read: ReadEvents;
  private cursor: number;
  private pumping = false;
  private again = false;
  active = true;

  constructor(runId: string, listener: EventListener, cursor: number, read: ReadEvents, onError: ((error: unknown) => void) | undefined) {
    this.runId = runId;
    this.listener = listener;
    this.cursor = cursor;
    this.read = read;
    this.onError = onError;
  }

  /** Reads and delivers what is new; a call while a read is under way makes that read go round once more. */
  pump(): void {
    if (!this.active) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        let events: StoredEvent[];
        try {
          events = await this.read(this.runId, this.cursor);
        } catch (error) {
          this.report(error);
          return; // the next notification (or reconnect catch-up) tries again
        }
        for (const event of events) {
          if (!this.active) return;
          if (event.id <= this.cursor) continue;
          this.cursor = event.id;
          try {
            this.listener(event);
          } catch (error) {
            this.report(error);
          }
        }
      } while (this.again && this.active);
    } finally {
      this.pumping = false;
    }
  }

  private report(error: unknown): void {
    try {
      this.onError?.(error);
    } catch {
      // an error handler that throws has nowhere to go
    }
  }
}

export class EventFanout {
  private readonly byRun = new Map<string, Set<Subscription>>();
  private readonly read: ReadEvents;

  constructor(read: ReadEvents) {
    this.read = read;
  }

  get size(): number {
    let n = 0;
    for (const subs of this.byRun.values()) n += subs.size;
    return n;
  }

  /**
   * Registers a subscription starting after `options.afterId`, or after `currentLastId()`, then catches
   * up once: an event appended between that read and the registration (whose notification found no
   * subscriber) is delivered all the same. The store's notification source must be live before this call.
   */
  async add(runId: string, listener: EventListener, options: SubscribeOptions, currentLastId: () => Promise<number>): Promise<Unsubscribe> {
    const cursor = options.afterId ?? (await currentLastId());
    const sub = new Subscription(runId, listener, cursor, this.read, options.onError);
    let subs = this.byRun.get(runId);
    if (!subs) this.byRun.set(runId, (subs = new Set()));
    subs.add(sub);
    sub.pump();
    return () => {
      sub.active = false;
      const set = this.byRun.get(runId);
      set?.delete(sub);
      if (set?.size === 0) this.byRun.delete(runId);
    };
  }

  notify(runId: string): void {
    for (const sub of this.byRun.get(runId) ?? []) sub.pump();
  }

  notifyAll(): void {
    for (const subs of this.byRun.values()) for (const sub of subs) sub.pump();
  }

  clear(): void {
    for (const subs of this.byRun.values()) for (const sub of subs) sub.active = false;
    this.byRun.clear();
  }
}
