/**
 * A run's live events as Server-Sent Events, straight from the store's stream (`store.subscribe`: the
 * appending process's own notification, PostgreSQL LISTEN/NOTIFY across hosts) — no polling of the run.
 *
 * Every event goes out as `id: <n>` + `data: <the event as JSON>` (its `type` is inside), so a client that
 * reconnects with `Last-Event-ID: n` gets exactly the events after n. A comment line every heartbeat keeps
 * proxies from closing an idle stream. The stream ends after `run_stopped`; a reconnect to a run that has
 * ended and has nothing more to send gets 204, which tells EventSource to stop reconnecting.
 *
 * `run_stopped` goes out once the run has closed in Temporal. The worker stores a task's lines before it
 * reports the task done, and Temporal refuses a task that completes the run if a signal came in meanwhile:
 * the task that replaces it handles the signal and writes its own lines from the same seq on. So a
 * `run_stopped` followed by more trace lines was a refused task's and is never sent, and a line whose seq
 * was sent before is a replacement (a client keeps the latest line per seq).
 *
 * All clients of one run in this process share one store subscription (a hub): the store reads each new
 * event once, however many browsers watch the run. A joining client reads what it missed from the store
 * while the hub's live events wait in its buffer, then goes live; ids decide, so nothing is sent twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AgentStore, StoredEvent, Unsubscribe } from '../store/store.ts';

export interface EventStreamOptions {
  /** Whether the run's workflow was open when the request came (from the route's existence check). */
  open: boolean;
  /** Milliseconds between heartbeat comments (default 15 s). */
  heartbeatMs?: number;
  /** Whether the run's workflow is still open (checked when the stream is idle, for runs that end without `run_stopped`). */
  runIsOpen: () => Promise<boolean>;
}

/** Reconnect delay the server asks EventSource for. */
const RETRY_MS = 1000;
/** A client this far behind (bytes buffered) is dropped; it reconnects with its Last-Event-ID and catches up. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
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

type Deliver = (event: StoredEvent) => void;

/** One store subscription for every client of a run in this process. */
class RunHub {
  readonly clients = new Set<Deliver>();
  /** Resolves once the subscription is live (events after it are delivered); rejects if it cannot be made. */
  readonly ready: Promise<void>;
  private unsubscribe: Unsubscribe | null = null;
  private closed = false;

  constructor(store: AgentStore, runId: string, log: FastifyBaseLogger) {
    this.ready = store
      .subscribe(runId, (event) => {
        for (const deliver of [...this.clients]) deliver(event);
      }, { onError: (error) => log.warn({ err: error }, `event stream of ${runId} waits for the store`) })
      .then((stop) => {
        if (this.closed) stop();
        else this.unsubscribe = stop;
      });
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
  }
}

/** Open streams and their hubs, so a closing server can end them instead of waiting for their clients. */
export class EventStreams {
  private readonly open = new Set<() => void>();
  private readonly hubs = new Map<string, RunHub>();
  private readonly store: AgentStore;

  constructor(store: AgentStore) {
    this.store = store;
  }

  /** Open SSE connections. */
  get size(): number {
    return this.open.size;
  }

  closeAll(): void {
    for (const end of [...this.open]) end();
  }

  /** Serves `GET /runs/:id/events` from `afterId` on. */
  async serve(request: FastifyRequest, reply: FastifyReply, runId: string, afterId: number, options: EventStreamOptions): Promise<void> {
    if (await this.nothingMore(runId, afterId, options.open)) {
      await reply.code(204).send();
      return;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n: stream of ${runId} after event ${afterId}\n\n`);

    /** The last event id taken (sent, held, waiting or dropped). */
    let lastSeen = afterId;
    let ended = false;
    let idle = true;
    /** Live events that arrive while the client still reads what it missed. */
    let buffered: StoredEvent[] | null = [];
    /** A `run_stopped` not sent yet: the task that wrote it may still be refused, until the run has closed. */
    let held: StoredEvent | null = null;
    /** Events that came after the held `run_stopped` (ids stay in order); they go only if it was refused. */
    const behindHeld: StoredEvent[] = [];
    const send = (event: StoredEvent) => {
      idle = false;
      res.write(formatEvent(event));
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    };
    const write = (event: StoredEvent) => {
      if (ended || event.id <= lastSeen) return;
      lastSeen = event.id;
      if (held) {
        // Not a trace line (a client's cancel_requested, say): it may come after the end, and waits.
        if (!isTraceLine(event)) return void behindHeld.push(event);
        // A trace line: the task that wrote run_stopped was refused; its replacement's lines follow.
        held = null;
        for (const waiting of behindHeld.splice(0)) send(waiting);
      }
      if (isRunStopped(event)) void sendOnceClosed((held = event));
      else send(event);
    };
    const sendOnceClosed = async (stop: StoredEvent) => {
      let warned = false;
      for (let wait = options.open ? FIRST_CLOSE_CHECK_MS : 0; ; wait = Math.min(Math.max(wait, FIRST_CLOSE_CHECK_MS) * 2, MAX_CLOSE_CHECK_MS)) {
        if (wait) await sleep(wait, undefined, { ref: false });
        if (ended || held !== stop) return;
        try {
          if (await options.runIsOpen()) continue;
          // Closed: its last task's lines are all stored, so a trace line stored after `stop` means it was refused.
          for (const event of await this.store.readEvents(runId, stop.id)) write(event);
        } catch (error) {
          if (!warned) request.log.warn({ err: error }, `event stream of ${runId} waits to learn whether the run has closed`);
          warned = true;
          continue;
        }
        if (held === stop) {
          send(stop);
          end();
        }
        return;
      }
    };
    const deliver: Deliver = (event) => (buffered ? buffered.push(event) : write(event));
    const hub = this.join(runId, deliver, request.log);
    const heartbeat = setInterval(() => {
      if (ended) return;
      res.write(': heartbeat\n\n');
      if (!idle) return void (idle = true);
      // Idle for a whole beat: a run that ended without run_stopped (terminated) ends its stream too.
      if (!held) options.runIsOpen().then((open) => open || end(), () => {});
    }, options.heartbeatMs ?? 15_000);
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      this.leave(runId, hub, deliver);
      this.open.delete(end);
      res.end();
    };
    this.open.add(end);
    res.on('close', end);
    res.on('error', end);

    try {
      await hub.ready;
      // Everything after afterId that is stored now: at least up to where the hub's live events begin.
      for (const event of await this.store.readEvents(runId, afterId)) write(event);
      const live = buffered;
      buffered = null;
      for (const event of live) write(event);
    } catch (error) {
      request.log.warn({ err: error }, `event stream of ${runId} could not catch up`);
      end();
    }
  }

  /**
   * Whether a client that has everything up to afterId can expect nothing more: the event it last got was
   * run_stopped (the workflow may still be closing), or the run is closed and nothing follows afterId (its
   * trace lines are stored before it closes).
   */
  private async nothingMore(runId: string, afterId: number, open: boolean): Promise<boolean> {
    if (afterId > 0) {
      const [last] = await this.store.readEvents(runId, afterId - 1, 1);
      if (last?.id === afterId && isRunStopped(last)) return true;
    }
    return !open && (await this.store.readEvents(runId, afterId, 1)).length === 0;
  }

  private join(runId: string, deliver: Deliver, log: FastifyBaseLogger): RunHub {
    let hub = this.hubs.get(runId);
    if (!hub) {
      hub = new RunHub(this.store, runId, log);
      this.hubs.set(runId, hub);
      const created = hub;
      created.ready.catch(() => {
        if (this.hubs.get(runId) === created) this.hubs.delete(runId);
      });
    }
    hub.clients.add(deliver);
    return hub;
  }

  private leave(runId: string, hub: RunHub, deliver: Deliver): void {
    hub.clients.delete(deliver);
    if (hub.clients.size === 0) {
      hub.close();
      if (this.hubs.get(runId) === hub) this.hubs.delete(runId);
    }
  }
}
