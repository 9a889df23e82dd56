/**
 * Short-lived tickets for a run's event stream, so a long-lived bearer token never sits in a URL.
 *
 * EventSource cannot send an Authorization header. Instead of putting the token in the query, a page
 * mints a ticket with an authenticated `POST /runs/:id/events/ticket` and opens
 * `/runs/:id/events?ticket=…`. A ticket opens that run's stream only, as its minter with the viewer role
 * only, for `TICKET_TTL_MS` (any number of times in that window, so EventSource's own quick reconnects
 * work; a stream opened in time stays open). Tickets live in this process's memory: after a restart a page
 * mints another. They are looked up by their SHA-256, so the lookup's timing says nothing of the ticket.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from './auth.ts';
import { HttpError } from './errors.ts';

export const TICKET_TTL_MS = 60_000;
/** Live tickets kept at most; past it the oldest go first (a viewer minting in a loop cannot fill memory). */
const MAX_LIVE = 10_000;

interface Ticket {
  runId: string;
  principal: Principal;
  expiresAt: number;
}

export class EventTickets {
  private readonly live = new Map<string, Ticket>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? TICKET_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  mint(runId: string, minter: Principal): { ticket: string; expiresAt: string } {
    this.sweep();
    const ticket = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + this.ttlMs;
    this.live.set(digest(ticket), { runId, principal: { name: minter.name, roles: new Set(['viewer']) }, expiresAt });
    if (this.live.size > MAX_LIVE) this.live.delete(this.live.keys().next().value!);
    return { ticket, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Who a ticket lets watch `runId`; a 401 when it is unknown or expired, a 403 for another run. */
  redeem(ticket: string, runId: string): Principal {
    const found = this.live.get(digest(ticket));
    if (!found || found.expiresAt <= this.now()) {
      throw new HttpError('unauthorized', `This ticket is unknown or has expired (a ticket lasts ${this.ttlMs / 1000} s): mint another with POST /runs/${runId}/events/ticket.`);
    }
    if (found.runId !== runId) throw new HttpError('forbidden', `This ticket opens the events of run ${found.runId}, not ${runId}.`);
    return found.principal;
  }

  private sweep(): void {
    const now = this.now();
    // In the order minted, which is the order they expire in.
    for (const [key, ticket] of this.live) {
      if (ticket.expiresAt > now) break;
      this.live.delete(key);
    }
  }
}

function digest(ticket: string): string {
  return createHash('sha256').update(ticket).digest('base64url');
}
