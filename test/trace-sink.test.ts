/** The trace sink: per-run order, (runId, seq) dedupe, outage retries, and runs that do not wait for each other. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { StoreUnavailableError } from '../src/store/errors.ts';
import { SqliteStore } from '../src/store/sqlite-store.ts';
import type { AgentStore } from '../src/store/store.ts';
import { TraceSink } from '../src/worker/trace-sink.ts';
import type { TraceLine } from '../src/wire/trace-events.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'trace-sink-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let stores = 0;

/** A real SQLite store whose trace writes can be held (per run) or fail (an outage); `events(runId)`: the seqs of the run's events. */
function heldStore() {
  const real = new SqliteStore(path.join(dir, `store-${++stores}.sqlite`));
  const state = {
    down: false,
    /** Writes of these runs wait until released. */
    held: new Map<string, Promise<void>>(),
  };
  const store = Object.assign(Object.create(real) as AgentStore, {
    publishTrace: async (runId: string, lines: Parameters<AgentStore['publishTrace']>[1]) => {
      await state.held.get(runId);
      if (state.down) throw new StoreUnavailableError(real.location, 'the test took it down', 'nothing: the test brings it back');
      return real.publishTrace(runId, lines);
    },
  });
  const events = async (runId: string) => (await real.readEvents(runId)).map((e) => (e.event as TraceLine).seq);
  return { store, state, events, real };
}

const line = (runId: string, seq: number): TraceLine => ({ runId, seq, at: new Date(0).toISOString(), type: 'turn', turn: seq }) as unknown as TraceLine;

test('lines are written in order per run, and a line already stored is not an event again', async () => {
  const { store, events, real } = heldStore();
  const sink = new TraceSink(store);
  await Promise.all([sink.write(line('a', 1)), sink.write(line('b', 1)), sink.write(line('a', 2)), sink.write(line('a', 3))]);
  // A retried workflow task emits the same lines again: no duplicate.
  await Promise.all([sink.write(line('a', 2)), sink.write(line('a', 3))]);
  assert.deepEqual(await events('a'), [1, 2, 3]);
  assert.deepEqual(await events('b'), [1]);
  assert.deepEqual((await real.readTrace('a')).map((l) => l.seq), [1, 2, 3]);
  assert.equal(sink.pendingLines, 0);
  sink.close();
  await real.close();
});

test("one run's slow store write does not hold up another run's lines", async () => {
  const { store, state, events, real } = heldStore();
  const sink = new TraceSink(store);
  let release!: () => void;
  state.held.set('slow', new Promise<void>((resolve) => (release = resolve)));
  const slow = sink.write(line('slow', 1));
  await sink.write(line('fast', 1));
  assert.deepEqual(await events('fast'), [1]);
  assert.deepEqual(await events('slow'), []);
  release();
  await slow;
  assert.deepEqual(await events('slow'), [1]);
  sink.close();
  await real.close();
});

test('lines the store could not take are written again, in order, once it is back', async () => {
  const { store, state, events, real } = heldStore();
  const warnings: string[] = [];
  const sink = new TraceSink(store, (m) => warnings.push(m));
  state.down = true;
  await sink.write(line('r', 1));
  await sink.write(line('r', 2));
  assert.equal(sink.pendingLines, 2);
  assert.equal(warnings.length, 1, 'one warning per outage, not one per line');
  assert.match(warnings[0]!, /trace lines of r wait for the store/);
  state.down = false;
  // The next line of the run writes the earlier ones first.
  await sink.write(line('r', 3));
  assert.deepEqual(await events('r'), [1, 2, 3]);
  // With no next line, the retry timer writes them.
  state.down = true;
  await sink.write(line('r', 4));
  state.down = false;
  const deadline = Date.now() + 5000;
  while (sink.pendingLines && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(await events('r'), [1, 2, 3, 4]);
  sink.close();
  await real.close();
});

test("an execution's closing line returns only once the run's lines are stored: it cannot close with lines held in memory", async () => {
  const { store, state, events, real } = heldStore();
  const sink = new TraceSink(store, () => {});
  const warnings: string[] = [];
  const stopping = new TraceSink(store, (m) => warnings.push(m));
  try {
    state.down = true;
    await sink.write(line('c', 1));
    const closing = { ...line('c', 2), type: 'run_stopped' } as TraceLine;
    let returned = false;
    const written = sink.write(closing).then(() => (returned = true));
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(returned, false, 'the closing task must wait while the store is down');
    state.down = false;
    await written;
    assert.deepEqual(await events('c'), [1, 2]);
    // A worker shutting down waits no longer than its grace, and says what is lost.
    stopping.watchShutdown(() => true);
    state.down = true;
    stopping.close();
    await stopping.write({ ...line('d', 1), type: 'continued_as_new' } as TraceLine);
    assert.match(warnings.at(-1)!, /the run d closes without 1 trace line\(s\)/);
  } finally {
    // Stops the retry timers, so a failure ends the file at once.
    sink.close();
    stopping.close();
    await real.close();
  }
});
