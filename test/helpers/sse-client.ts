/**
 * A minimal Server-Sent Events client for tests and the latency script: connects (with a Last-Event-ID
 * when asked), parses `id:`/`data:` events and comments, and hands each event over as it arrives.
 */
import http from 'node:http';

export interface SseEvent {
  id: number;
  data: unknown;
}

export interface SseConnection {
  status: number;
  /** Resolves when the server ends the stream (or the connection closes). */
  ended: Promise<void>;
  events: SseEvent[];
  /** Waits until an event satisfies `check` (or the stream ends: then rejects). */
  waitFor(check: (event: SseEvent) => boolean, what: string, timeoutMs?: number): Promise<SseEvent>;
  comments: string[];
  close(): void;
}

export interface SseOptions {
  lastEventId?: number;
  token?: string;
  onEvent?: (event: SseEvent) => void;
}

export function openSse(url: string, options: SseOptions = {}): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const request = http.get(url, { headers, agent: false }, (response) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let done = false;
      const ended = new Promise<void>((end) => {
        const finish = () => {
          done = true;
          for (const wake of waiters) wake();
          end();
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          let id: number | null = null;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) id = Number(line.slice(4));
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (id !== null) {
            const event = { id, data: JSON.parse(data) as unknown };
            events.push(event);
            options.onEvent?.(event);
          }
        }
        for (const wake of waiters) wake();
      });
      resolve({
        status: response.statusCode ?? 0,
        ended,
        events,
        comments,
        close: () => request.destroy(),
        waitFor(check, what, timeoutMs = 20_000) {
          return new Promise((found, fail) => {
            const timer = setTimeout(() => (waiters.delete(look), fail(new Error(`Timed out waiting for ${what}; events so far: ${JSON.stringify(events.map((e) => (e.data as { type?: string }).type))}`))), timeoutMs);
            const look = () => {
              const event = events.find(check);
              if (event || done) {
                clearTimeout(timer);
                waiters.delete(look);
                if (event) found(event);
                else fail(new Error(`The stream ended before ${what}`));
              }
            };
            waiters.add(look);
            look();
          });
        },
      });
    });
    request.on('error', reject);
  });
}

/** The `type` of an SSE event's data. */
export const typeOf = (event: SseEvent): string => (event.data as { type?: string }).type ?? '';
