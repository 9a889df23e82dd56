/**
 * A run's live events as Server-Sent Events, straight from the store's stream (`store.subscribe`: the
 * appending process's own notification, PostgreSQL LISTEN/NOTIFY across hosts) — no polling of the run.
 *
 * Every event goes out as `id: <n>` + `data: <the event as JSON>` (its `type` is inside), so a client that
 * reconnects with `Last-Event-ID: n` gets exactly the events after n. A comment line every heartbeat keeps
 * proxies from closing an idle stream. The stream ends after `run_stopped`; a reconnect to a run that has
 * ended and has nothing more to send gets 204, which tells EventSource to stop reconnecting.
 *
 * `run_stopped` goes out once the run has closed in Temporal (why: sse-connection.ts, one client's stream).
 *
 * All clients of one run in this process share one store subscription (a hub): the store reads each new
 * event once, however many browsers watch the run. A joining client reads what it missed from the store
 * while the hub's live events wait in its buffer, then goes live; ids decide, so nothing is sent twice.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AgentStore, Unsubscribe } from '../store/store.ts';
import { isRunStopped, SseConnection, type SseConnectionOptions } from './sse-connection.ts';

/** From the route: whether the run was open, the heartbeat, and how to ask whether it still is. */
export type EventStreamOptions = Pick<SseConnectionOptions, 'open' | 'heartbeatMs' | 'runIsOpen'>;

/** Reconnect delay the server asks EventSource for. */
const RETRY_MS = 1000;
type Deliver = SseConnection['deliver'];

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
  private readonly open = new Set<SseConnection>();
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
    for (const connection of [...this.open]) connection.end();
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
    const connection: SseConnection = new SseConnection(res, afterId, {
      ...options,
      readEvents: (after) => this.store.readEvents(runId, after),
      warn: (error, what) => request.log.warn({ err: error }, `event stream of ${runId} ${what}`),
      onEnd: () => {
        this.leave(runId, hub, connection.deliver);
        this.open.delete(connection);
      },
    });
    const hub = this.join(runId, connection.deliver, request.log);
    this.open.add(connection);
    res.on('close', () => connection.end());
    res.on('error', () => connection.end());
    await connection.catchUp(hub.ready);
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
