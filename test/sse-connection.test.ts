/** One client's SSE stream as a state machine, without a server: catch-up, a held run_stopped, heartbeats, a slow client. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_BUFFERED_BYTES, SseConnection, type SseConnectionOptions, type SseSink } from '../src/http/sse-connection.ts';
import type { StoredEvent } from '../src/store/store.ts';
import { eventually } from './helpers/eventually.ts';

const RUN = 'run-sse';
const at = new Date(0).toISOString();
const line = (id: number, seq: number, type = 'turn'): StoredEvent => ({ runId: RUN, id, at, event: { type, seq } });
const delta = (id: number): StoredEvent => ({ runId: RUN, id, at, event: { type: 'model_delta', text: `d${id}` } });
const stopped = (id: number, seq: number) => line(id, seq, 'run_stopped');

/** An in-memory sink, a store of events and a run whose openness the test sets. */
function harness(afterId = 0, over: Partial<SseConnectionOptions> = {}) {
  const written: string[] = [];
  const sink: SseSink & { ended: boolean; destroyed: boolean; writableLength: number } = {
    ended: false,
    destroyed: false,
    writableLength: 0,
    write: (text) => void written.push(text),
    destroy() {
      this.destroyed = true;
    },
    end() {
      this.ended = true;
    },
  };
  const stored: StoredEvent[] = [];
  const warnings: string[] = [];
  let open = true;
  let ends = 0;
  const connection = new SseConnection(sink, afterId, {
    open: true,
    heartbeatMs: 60_000,
    runIsOpen: () => Promise.resolve(open),
    readEvents: (after) => Promise.resolve(stored.filter((e) => e.id > after)),
    warn: (_error, what) => void warnings.push(what),
    onEnd: () => void ends++,
    ...over,
  });
  return {
    connection,
    sink,
    stored,
    warnings,
    close: () => void (open = false),
    ends: () => ends,
    /** The ids sent, in order. */
    ids: () => written.filter((t) => t.startsWith('id: ')).map((t) => Number(/^id: (\d+)/.exec(t)![1])),
    written,
  };
}

test('catch-up: stored events first, then those that came live meanwhile, each id once and in order', async () => {
  const h = harness(1);
  h.stored.push(line(1, 1), line(2, 2), line(3, 3));
  let goLive!: () => void;
  const catchingUp = h.connection.catchUp(new Promise<void>((resolve) => (goLive = resolve)));
  h.connection.deliver(line(3, 3)); // also in the store: sent once
  h.connection.deliver(line(4, 4));
  assert.deepEqual(h.ids(), [], 'nothing goes out before the subscription is live');
  goLive();
  await catchingUp;
  h.connection.deliver(delta(5));
  h.connection.deliver(line(4, 4));
  assert.deepEqual(h.ids(), [2, 3, 4, 5]);
  assert.equal(h.written[0], 'id: 2\ndata: {"type":"turn","seq":2}\n\n');
  h.connection.end();
});

test('a run_stopped is held until the run has closed, then sent, and the stream ends', async () => {
  const h = harness();
  await h.connection.catchUp(Promise.resolve());
  h.connection.deliver(line(1, 1));
  h.connection.deliver(stopped(2, 2));
  await sleep(30);
  assert.deepEqual(h.ids(), [1], 'held while the run is open');
  assert.equal(h.connection.isEnded, false);
  h.close();
  await eventually(() => h.connection.isEnded, 'the stream to end');
  assert.deepEqual(h.ids(), [1, 2]);
  assert.equal(h.sink.ended, true);
  assert.equal(h.ends(), 1);
});

test('a run_stopped followed by a trace line was a refused task: it is dropped, what waited behind it goes, then the replacement', async () => {
  const h = harness();
  await h.connection.catchUp(Promise.resolve());
  h.connection.deliver(stopped(1, 1));
  h.connection.deliver(delta(2)); // not a trace line: waits behind the held run_stopped
  h.connection.deliver(line(3, 1, 'tool_start')); // the replacement task's line for the same seq
  assert.deepEqual(h.ids(), [2, 3]);
  h.connection.deliver(stopped(4, 2));
  h.stored.push(stopped(4, 2));
  h.close();
  await eventually(() => h.connection.isEnded, 'the stream to end');
  assert.deepEqual(h.ids(), [2, 3, 4]);
});

test('a run that has closed: the stored lines after a run_stopped decide, and what waited behind a sent run_stopped is not sent', async () => {
  const h = harness(0, { open: false, runIsOpen: () => Promise.resolve(false) });
  h.stored.push(stopped(1, 1), delta(2));
  await h.connection.catchUp(Promise.resolve());
  await eventually(() => h.connection.isEnded, 'the stream to end');
  assert.deepEqual(h.ids(), [1]);
});

test('heartbeats: a comment each beat; after an idle beat a run that closed without run_stopped ends the stream', async () => {
  const h = harness();
  await h.connection.catchUp(Promise.resolve());
  h.connection.deliver(line(1, 1));
  h.close();
  h.connection.beat(); // something was sent in this beat: no question asked
  await sleep(5);
  assert.equal(h.connection.isEnded, false);
  h.connection.beat();
  await eventually(() => h.connection.isEnded, 'the stream to end');
  assert.equal(h.written.filter((t) => t === ': heartbeat\n\n').length, 2);
  h.connection.beat();
  assert.equal(h.written.filter((t) => t === ': heartbeat\n\n').length, 2, 'an ended stream writes nothing');
});

test('a client too far behind is dropped (it reconnects with its Last-Event-ID)', async () => {
  const h = harness();
  await h.connection.catchUp(Promise.resolve());
  h.connection.deliver(line(1, 1));
  assert.equal(h.sink.destroyed, false);
  h.sink.writableLength = MAX_BUFFERED_BYTES + 1;
  h.connection.deliver(line(2, 2));
  assert.equal(h.sink.destroyed, true);
  h.connection.end();
});

test('a catch-up that fails warns and ends the stream; end is idempotent', async () => {
  const h = harness(0, { readEvents: () => Promise.reject(new Error('store down')) });
  await h.connection.catchUp(Promise.resolve());
  assert.deepEqual(h.warnings, ['could not catch up']);
  assert.equal(h.connection.isEnded, true);
  h.connection.end();
  assert.equal(h.ends(), 1);
  h.connection.deliver(line(1, 1));
  assert.deepEqual(h.ids(), []);
});
