/**
 * One client's SSE stream of a run, as a state machine apart from HTTP: what it has sent (`lastSeen`), the
 * live events that wait while it catches up from the store (`buffered`), a `run_stopped` it holds until the
 * run has closed (`held`) and the events behind it (`behindHeld`), whether a heartbeat found it idle, and
 * whether it has ended. event-stream.ts gives it the response to write to and the run's hub; the unit tests
 * give it an array.
 *
 * Why a `run_stopped` is held: the worker stores a task's lines before it reports the task done, and
 * Temporal refuses a task that completes the run if a signal came in meanwhile; the task that replaces it
 * writes its own lines from the same seq on. So a `run_stopped` goes out only once the run has closed in
 * Temporal, a `run_stopped` followed by more trace lines was a refused task's and is never sent, and a line
 * whose seq was sent before is a replacement (a client keeps the latest line per seq).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredEvent } from '../store/store.ts';

/** Where a connection writes: an `http.ServerResponse` is one. */
export interface SseSink {
  write(text: string): unknown;
  /** Bytes written and not yet taken by the client. */
  readonly writableLength: number;
  destroy(): void;
  end(): void;
}

export interface SseConnectionOptions {
  /** Whether the run's workflow was open when the request came (a closed run's `run_stopped` goes at once). */
  open: boolean;
  /** Milliseconds between heartbeat comments (default 15 s). */
  heartbeatMs?: number;
  /** Whether the run's workflow is still open. */
  runIsOpen: () => Promise<boolean>;
  /** The run's stored events with an id above `afterId`, in id order. */
  readEvents: (afterId: number) => Promise<StoredEvent[]>;
  warn: (error: unknown, message: string) => void;
  /** Called once, when the stream ends (the client left, the run ended, or the server closes it). */
  onEnd: () => void;
}

/** A client this far behind (bytes buffered) is dropped; it reconnects with its Last-Event-ID and catches up. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** How often a held `run_stopped` asks whether the run has closed: its task usually completes within ms. */
const FIRST_CLOSE_CHECK_MS = 20;
const MAX_CLOSE_CHECK_MS = 1000;

export function formatEvent(event: StoredEvent): string {
  return `id: ${event.id}\ndata: ${JSON.stringify(event.event)}\n\n`;
}

export function isRunStopped(event: StoredEvent): boolean {
  return (event.event as { type?: unknown } | null)?.type === 'run_stopped';
}

/** A line of the workflow's trace (it has a seq), as opposed to streamed model text or a client's announcement. */
function isTraceLine(event: StoredEvent): boolean {
  return typeof (event.event as { seq?: unknown } | null)?.seq === 'number';
}

export class SseConnection {
  /** The last event id taken (sent, held, waiting or dropped). */
  private lastSeen: number;
  private ended = false;
  /** Nothing sent since the last heartbeat. */
  private idle = true;
  /** Live events that arrive while the client still reads what it missed; null once it has caught up. */
  private buffered: StoredEvent[] | null = [];
  /** A `run_stopped` not sent yet: the task that wrote it may still be refused, until the run has closed. */
  private held: StoredEvent | null = null;
  /** Events that came after the held `run_stopped` (ids stay in order); they go only if it was refused. */
  private readonly behindHeld: StoredEvent[] = [];
  private readonly heartbeat: NodeJS.Timeout;
  private readonly sink: SseSink;
  private readonly options: SseConnectionOptions;

  /** Starts the heartbeat; the caller has written the response's head. */
  constructor(sink: SseSink, afterId: number, options: SseConnectionOptions) {
    this.sink = sink;
    this.lastSeen = afterId;
    this.options = options;
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 15_000);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** A live event (from the run's hub): waits while the client catches up, then goes out in id order. */
  readonly deliver = (event: StoredEvent): void => {
    if (this.buffered) this.buffered.push(event);
    else this.take(event);
  };

  /** Once `live` (the hub's subscription) is established: sends what is stored after `afterId`, then what came live meanwhile. */
  async catchUp(live: Promise<void>): Promise<void> {
    try {
      await live;
      // Everything stored now: at least up to where the hub's live events begin.
      for (const event of await this.options.readEvents(this.lastSeen)) this.take(event);
      const waiting = this.buffered ?? [];
      this.buffered = null;
      for (const event of waiting) this.take(event);
    } catch (error) {
      this.options.warn(error, 'could not catch up');
      this.end();
    }
  }

  /** A heartbeat comment; after a whole idle beat, a run that ended without `run_stopped` (terminated) ends its stream too. */
  beat(): void {
    if (this.ended) return;
    this.sink.write(': heartbeat\n\n');
    if (!this.idle) return void (this.idle = true);
    if (!this.held) this.options.runIsOpen().then((open) => open || this.end(), () => {});
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    this.options.onEnd();
    this.sink.end();
  }

  private take(event: StoredEvent): void {
    if (this.ended || event.id <= this.lastSeen) return;
    this.lastSeen = event.id;
    if (this.held) {
      // Not a trace line (a client's cancel_requested, say): it may come after the end, and waits.
      if (!isTraceLine(event)) return void this.behindHeld.push(event);
      // A trace line: the task that wrote run_stopped was refused; its replacement's lines follow.
      this.held = null;
      for (const waiting of this.behindHeld.splice(0)) this.send(waiting);
    }
    if (isRunStopped(event)) void this.sendOnceClosed((this.held = event));
    else this.send(event);
  }

  private send(event: StoredEvent): void {
    this.idle = false;
    this.sink.write(formatEvent(event));
    if (this.sink.writableLength > MAX_BUFFERED_BYTES) this.sink.destroy();
  }

  /** Sends the held `stop` and ends once the run has closed, unless a trace line after it shows its task was refused. */
  private async sendOnceClosed(stop: StoredEvent): Promise<void> {
    let warned = false;
    for (let wait = this.options.open ? FIRST_CLOSE_CHECK_MS : 0; ; wait = Math.min(Math.max(wait, FIRST_CLOSE_CHECK_MS) * 2, MAX_CLOSE_CHECK_MS)) {
      if (wait) await sleep(wait, undefined, { ref: false });
      if (this.ended || this.held !== stop) return;
      try {
        if (await this.options.runIsOpen()) continue;
        // Closed: its last task's lines are all stored, so a trace line stored after `stop` means it was refused.
        for (const event of await this.options.readEvents(stop.id)) this.take(event);
      } catch (error) {
        if (!warned) this.options.warn(error, 'waits to learn whether the run has closed');
        warned = true;
        continue;
      }
      if (this.held === stop) {
        this.send(stop);
        this.end();
      }
      return;
    }
  }
}
