/** The trace sink: per-run order, (runId, seq) dedupe, outage retries, and runs that do not wait for each other. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentStore } from '../src/store/store.ts';
import { TraceSink } from '../src/worker/trace-sink.ts';
import type { TraceLine } from '../src/wire/trace-events.ts';

/** A store with only what the sink uses: trace rows unique by (runId, seq), events in order; writes can be held or fail. */
function fakeStore() {
  const traced = new Set<string>();
  const events: { runId: string; seq: number }[] = [];
  const state = {
    traced,
    events,
    down: false,
    /** Writes of these runs wait until released. */
    held: new Map<string, Promise<void>>(),
  };
  const store = {
    async appendTrace(line: TraceLine) {
      await state.held.get(line.runId);
      if (state.down) throw new Error('store unavailable');
      const key = `${line.runId}:${line.seq}`;
      if (traced.has(key)) return false;
      traced.add(key);
      return true;
    },
    appendEvent(runId: string, line: TraceLine) {
      if (state.down) return Promise.reject(new Error('store unavailable'));
      events.push({ runId, seq: line.seq });
      return Promise.resolve({ runId, id: events.length, at: line.at, event: line });
    },
  } as unknown as AgentStore;
  return { store, state };
}

const line = (runId: string, seq: number): TraceLine => ({ runId, seq, at: new Date(0).toISOString(), type: 'turn', turn: seq }) as unknown as TraceLine;

test('lines are written in order per run, and a line already stored is not an event again', async () => {
  const { store, state } = fakeStore();
  const sink = new TraceSink(store);
  await Promise.all([sink.write(line('a', 1)), sink.write(line('b', 1)), sink.write(line('a', 2)), sink.write(line('a', 3))]);
  // A retried workflow task emits the same lines again: no duplicate.
  await Promise.all([sink.write(line('a', 2)), sink.write(line('a', 3))]);
  assert.deepEqual(
    state.events.filter((e) => e.runId === 'a').map((e) => e.seq),
    [1, 2, 3],
  );
  assert.equal(state.events.length, 4);
  assert.equal(sink.pendingLines, 0);
  sink.close();
});

test("one run's slow store write does not hold up another run's lines", async () => {
  const { store, state } = fakeStore();
  const sink = new TraceSink(store);
  let release!: () => void;
  state.held.set('slow', new Promise<void>((resolve) => (release = resolve)));
  const slow = sink.write(line('slow', 1));
  await sink.write(line('fast', 1));
  assert.deepEqual(state.events, [{ runId: 'fast', seq: 1 }]);
  release();
  await slow;
  assert.deepEqual(state.events, [
    { runId: 'fast', seq: 1 },
    { runId: 'slow', seq: 1 },
  ]);
  sink.close();
});

test('lines the store could not take are written again, in order, once it is back', async () => {
  const { store, state } = fakeStore();
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
  assert.deepEqual(
    state.events.map((e) => e.seq),
    [1, 2, 3],
  );
  // With no next line, the retry timer writes them.
  state.down = true;
  await sink.write(line('r', 4));
  state.down = false;
  const deadline = Date.now() + 5000;
  while (sink.pendingLines && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(
    state.events.map((e) => e.seq),
    [1, 2, 3, 4],
  );
  sink.close();
});
