/** The bench's tables (stdout) and its JSON (`--json <file>`). */
import { median, p95, quantile } from './stats.ts';
import { table } from '../table.ts';
import type { CancelResult } from './cancel.ts';
import type { HistoryRow } from './history.ts';
import type { ParkedResult } from './parked.ts';
import type { ReplaySpeedRow } from './replay-speed.ts';
import { CONTEXT_BENCH_WINDOW, type ContextRow } from './context.ts';
import type { StoreCostRow } from './store-cost.ts';
import type { FloorStep } from './floor-workflow.ts';
import { PLAN_STEPS, type PlanRuns, type Throughput, type TurnsResult } from './turns.ts';

export interface BenchResults {
  address: string;
  turns?: TurnsResult;
  cancel?: CancelResult;
  parked?: ParkedResult;
  history?: HistoryRow[];
  store?: StoreCostRow[];
  replay?: ReplaySpeedRow[];
  context?: ContextRow[];
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;
const times = (x: number) => `${x.toFixed(2)}×`;
const range = (xs: number[], f: (x: number) => string) => (xs.length > 1 ? `${f(Math.min(...xs))}–${f(Math.max(...xs))}` : f(xs[0] ?? NaN));

/** `['activity', 'local', 'activity']` → "2 activities, 1 local activity". */
function describeSteps(steps: readonly FloorStep[]): string {
  const count = (kind: FloorStep, one: string, many: string) => {
    const n = steps.filter((s) => s === kind).length;
    return n === 0 ? [] : [`${n} ${n === 1 ? one : many}`];
  };
  return [...count('activity', 'activity', 'activities'), ...count('local', 'local activity', 'local activities')].join(', ');
}

function medianRunsPerSecond(t: Throughput): number {
  return median(t.rounds.map((x) => x.runsPerSecond));
}

/** `inProcess`: what the bench process runs for these runs. */
function cpuPerRun(t: Throughput, inProcess: string): string {
  return `${ms(t.cpuPerRunMs.bench)} in this process (${inProcess})` + (t.cpuPerRunMs.server === null ? '' : `, ${ms(t.cpuPerRunMs.server)} in the Temporal server`);
}

/** What the harness adds per turn beyond Temporal running the same steps with nothing in them. */
function ownOverheadPerTurnMs(p: PlanRuns): number {
  return median(p.overheadPerTurnMs) - median(p.sameStepsMs) / p.turnsPerRun;
}

export function renderReport(r: BenchResults): string {
  const out: string[] = [];
  const section = (title: string, body: string) => out.push(`\n${title}\n\n${body}`);

  if (r.turns) {
    const t = r.turns;
    const planRows = t.plans.flatMap((p) => [
      [`plan run, model call as ${p.modelCall === 'local' ? 'a local activity' : 'an activity'}: wall time`, ms(median(p.wallMs)), ms(p95(p.wallMs))],
      ['  harness overhead per turn (wall − model − tools) / turns', ms(median(p.overheadPerTurnMs)), ms(p95(p.overheadPerTurnMs))],
      ['  time inside the model server per run', ms(median(p.modelMs)), ms(p95(p.modelMs))],
      ['  tool time per run', ms(median(p.toolMs)), ms(p95(p.toolMs))],
      [`  Temporal alone with the same steps (${describeSteps(PLAN_STEPS[p.modelCall])})`, ms(median(p.sameStepsMs)), ms(p95(p.sameStepsMs))],
    ]);
    section(
      `Turns: the plan scenario (3 model calls, 2 tool runs), ${t.runs} runs one at a time per model-call mode, and Temporal alone on the same server (${r.address})`,
      table(
        ['measure', 'median', 'p95'],
        [
          ...planRows,
          ['Temporal alone: workflow with 5 no-op activities', ms(median(t.floor5Ms)), ms(p95(t.floor5Ms))],
          ['Temporal alone: workflow with no activity', ms(median(t.floor0Ms)), ms(p95(t.floor0Ms))],
          ['one Temporal activity hop = (5 activities − none) / 5', ms(t.hopMs), ''],
        ],
      ) +
        '\n\n' +
        table(
          ['ratio', ...t.plans.map((p) => `model call: ${p.modelCall}`)],
          [
            ['harness overhead per turn / one activity hop', ...t.plans.map((p) => times(median(p.overheadPerTurnMs) / t.hopMs))],
            ['plan run / Temporal workflow with the same 5 activities', ...t.plans.map((p) => times(median(p.wallMs) / median(t.floor5Ms)))],
            ['plan run / Temporal alone with the same steps', ...t.plans.map((p) => times(median(p.wallMs) / median(p.sameStepsMs)))],
            ['harness overhead per turn beyond those steps / one activity hop', ...t.plans.map((p) => times(ownOverheadPerTurnMs(p) / t.hopMs))],
          ],
        ),
    );
    for (const p of t.plans) {
      const rounds = p.throughput.rounds;
      const bare = p.sameStepsThroughput;
      section(
        `Throughput, model call: ${p.modelCall}: ${p.throughput.concurrent} plan runs at once, ${rounds.length} rounds`,
        table(
          ['round', 'wall', 'runs/s', 'p95 run'],
          rounds.map((x, i) => [i + 1, ms(x.ms), x.runsPerSecond.toFixed(1), ms(x.p95RunMs)]),
        ) +
          `\n\nruns/s: median ${medianRunsPerSecond(p.throughput).toFixed(1)} (range ${range(rounds.map((x) => x.runsPerSecond), (x) => x.toFixed(1))})` +
          `\nCPU per plan run: ${cpuPerRun(p.throughput, 'client, worker, scripted model, store')}` +
          `\nTemporal alone with the same steps, ${bare.concurrent} at once: median ${medianRunsPerSecond(bare).toFixed(1)} runs/s (range ${range(bare.rounds.map((x) => x.runsPerSecond), (x) => x.toFixed(1))}); CPU per run: ${cpuPerRun(bare, 'client, worker')}` +
          `\nplan runs/s / Temporal alone's with the same steps: ${times(medianRunsPerSecond(p.throughput) / medianRunsPerSecond(bare))}` +
          `\n${p.slowModel.runs} runs calling a ${p.slowModel.modelMs} ms model at once: ${(p.slowModel.wallMs / 1000).toFixed(1)} s, at most ${p.slowModel.maxOpenRequests} model requests open together`,
      );
    }
  }

  if (r.cancel) {
    const c = r.cancel;
    const row = (what: string, xs: number[]) => [what, ms(median(xs)), ms(p95(xs)), ms(quantile(xs, 1)), xs.length];
    const hb = c.heartbeats;
    section(
      'Cancel: from cancelRun() to the activity stopping',
      table(
        ['measure', 'median', 'p95', 'max', 'n'],
        [
          row('cancel → tool AbortSignal aborted (announced through the store)', c.toolMs),
          row('  of which cancelRun() itself (reason signal, cancel)', c.clientMs),
          row('  the same, from a client without the store (announced by the workflow)', c.toolWithoutStoreMs),
          row('cancel → model HTTP request closed (announced through the store)', c.modelMs),
          row('  the same, from a client without the store (announced by the workflow)', c.modelWithoutStoreMs),
          row('  the same, model call as a local activity (through the store)', c.localModelMs),
          row('  the same, local, from a client without the store (Temporal asked every second)', c.localWithoutStoreMs),
        ],
      ) +
        '\n\n' +
        table(
          ['what a cancel path costs', 'value'],
          [
            ['heartbeat RPCs per running tool per second', hb.perToolSecond.toFixed(1)],
            ['heartbeat RPCs per second of a model call waiting for its reply', hb.perModelSecond.toFixed(1)],
            ['describe RPCs per second of a local model call waiting for its reply (it sends no heartbeats)', hb.describesPerLocalModelSecond.toFixed(1)],
            [
              `Temporal server CPU per tool-second (${hb.concurrentTools} scan runs at once, idle subtracted)`,
              hb.serverCpuMsPerToolSecond === null ? 'n/a (external server)' : ms(hb.serverCpuMsPerToolSecond),
            ],
          ],
        ),
    );
  }

  if (r.parked) {
    const p = r.parked;
    const options =
      (Object.keys(p.workerOptions).length ? ` with ${JSON.stringify(p.workerOptions)}` : '') + (p.nodeArgs.length ? ` under node ${p.nodeArgs.join(' ')}` : '');
    section(
      `Parked runs: ${p.runs} runs waiting for an approval, in a worker process of their own${options} (parked in ${p.parkSeconds.toFixed(1)} s)`,
      table(
        ['worker RSS', 'value'],
        [
          ['idle (after one run)', `${p.rss.idleMiB.toFixed(0)} MiB`],
          [`${p.runs} runs parked`, `${p.rss.parkedMiB.toFixed(0)} MiB`],
          [`${p.rss.settleSeconds} s later`, `${p.rss.settledMiB.toFixed(0)} MiB`],
          ['peak meanwhile', `${p.rss.peakMiB.toFixed(0)} MiB`],
          ['per parked run', `${(((p.rss.settledMiB - p.rss.idleMiB) * 1024) / p.runs).toFixed(0)} KiB`],
        ],
      ) +
        '\n\n' +
        table(
          ['resume after a decision', 'median', 'p95', 'max', 'n'],
          [
            ['approve → decision taken by the run (Update answered)', ms(median(p.approveMs)), ms(p95(p.approveMs)), ms(quantile(p.approveMs, 1)), p.approveMs.length],
            ['approve → run completed (tool + one more turn)', ms(median(p.resumeToEndMs)), ms(p95(p.resumeToEndMs)), ms(quantile(p.resumeToEndMs, 1)), p.resumeToEndMs.length],
          ],
        ),
    );
  }

  if (r.history) {
    section(
      'History per turn: runs reading a 4 KiB file per turn (all executions of the run; continue-as-new when Temporal suggests it)',
      table(
        ['turns', 'executions', 'events', 'history', 'per turn', 'largest event', 'whole-transcript design', 'run time'],
        r.history.map((h) => [
          h.turns,
          h.executions,
          h.events.toLocaleString('en-US'),
          mib(h.bytes),
          kib(h.bytesPerTurn),
          kib(h.largestEventBytes),
          mib(h.wholeTranscriptBytes),
          `${(h.runMs / 1000).toFixed(1)} s`,
        ]),
      ),
    );
  }

  if (r.store) {
    const rows = r.store.map((s) => ('skipped' in s ? [s.kind, 'skipped', '', '', s.skipped] : [s.kind, ms(s.medianMs), ms(s.p95Ms), ms(s.meanMs), `${s.turns} turns, ${s.linkBytes} B link`]));
    section(
      'Store per turn: one transcript link written and read back, 3 trace lines published with their events (PostgreSQL: the tests\' throwaway server, fsync off)',
      table(['store', 'median', 'p95', 'mean', 'note'], rows),
    );
  }

  if (r.replay) {
    section(
      'Replay of a recording (no model to wait for: Temporal\'s pace)',
      table(
        ['recorded run', 'tools', 'turns', 'wall', 'per turn', 'turns/s'],
        r.replay.map((x) => [x.what, x.tools, x.turns, `${(x.wallMs / 1000).toFixed(2)} s`, ms(x.wallMs / x.turns), x.turnsPerSecond.toFixed(1)]),
      ),
    );
  }

  if (r.context) {
    const at = (row: ContextRow, turn: number) => String(row.perTurn[Math.min(turn, row.perTurn.length) - 1] ?? '');
    const marks = [10, 50, 100, 200, 300].filter((t) => r.context!.some((row) => row.perTurn.length >= t));
    section(
      `Context: a run reading 4 KiB a turn; prompt tokens sent per turn, with compaction (an ${CONTEXT_BENCH_WINDOW}-token window) and without`,
      table(
        ['compaction', ...marks.map((t) => `turn ${t}`), 'largest', 'prompt tokens in all', 'cost', 'compactions (summaries)', 'wall'],
        r.context.map((row) => [
          row.compaction,
          ...marks.map((t) => at(row, t)),
          String(Math.max(...row.perTurn)),
          String(row.promptTokens),
          `$${row.costUsd.toFixed(4)}`,
          `${row.compactions} (${row.summaries})`,
          `${(row.runMs / 1000).toFixed(1)} s`,
        ]),
      ),
    );
  }
  return out.join('\n');
}

/** The machine-readable form: summaries first, then every sample. */
export function jsonReport(r: BenchResults): unknown {
  const summary = (xs: number[]) => ({ median: median(xs), p95: p95(xs), max: quantile(xs, 1), n: xs.length });
  return {
    address: r.address,
    ...(r.turns && {
      turns: {
        floor5Ms: summary(r.turns.floor5Ms),
        floor0Ms: summary(r.turns.floor0Ms),
        hopMs: r.turns.hopMs,
        byModelCall: Object.fromEntries(
          r.turns.plans.map((p) => [
            p.modelCall,
            {
              planRunMs: summary(p.wallMs),
              overheadPerTurnMs: summary(p.overheadPerTurnMs),
              overheadPerTurnOverHop: median(p.overheadPerTurnMs) / r.turns!.hopMs,
              planOverFloor5: median(p.wallMs) / median(r.turns!.floor5Ms),
              sameStepsMs: summary(p.sameStepsMs),
              planOverSameSteps: median(p.wallMs) / median(p.sameStepsMs),
              ownOverheadPerTurnMs: ownOverheadPerTurnMs(p),
              throughput: { ...p.throughput, medianRunsPerSecond: medianRunsPerSecond(p.throughput) },
              sameStepsThroughput: { ...p.sameStepsThroughput, medianRunsPerSecond: medianRunsPerSecond(p.sameStepsThroughput) },
              throughputOverSameSteps: medianRunsPerSecond(p.throughput) / medianRunsPerSecond(p.sameStepsThroughput),
            },
          ]),
        ),
        samples: r.turns,
      },
    }),
    ...(r.cancel && {
      cancel: {
        toolMs: summary(r.cancel.toolMs),
        toolWithoutStoreMs: summary(r.cancel.toolWithoutStoreMs),
        clientMs: summary(r.cancel.clientMs),
        modelMs: summary(r.cancel.modelMs),
        modelWithoutStoreMs: summary(r.cancel.modelWithoutStoreMs),
        localModelMs: summary(r.cancel.localModelMs),
        localWithoutStoreMs: summary(r.cancel.localWithoutStoreMs),
        heartbeats: r.cancel.heartbeats,
        samples: r.cancel,
      },
    }),
    ...(r.parked && { parked: { ...r.parked, approveMs: summary(r.parked.approveMs), resumeToEndMs: summary(r.parked.resumeToEndMs), samples: r.parked } }),
    ...(r.history && { history: r.history }),
    ...(r.store && { store: r.store }),
    ...(r.replay && { replay: r.replay }),
    ...(r.context && { context: r.context }),
  };
}
