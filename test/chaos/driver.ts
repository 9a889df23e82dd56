/**
 * The chaos: a random worker SIGKILLed every few seconds (and another started in its place), and once
 * each, as the runs get through (by the share of them finished, so each lands on live runs): the Temporal
 * server restarted, Temporal's PostgreSQL restarted, the store's PostgreSQL restarted, and the store
 * stopped for longer than a tool's retries (the runs wait it out: workflows/store-outage.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Shape } from './shape.ts';

export interface Disruption {
  what: string;
  /** When it began (ms since the epoch) and how long until everything was back up. */
  at: number;
  ms: number;
}

/** A small seeded generator (mulberry32): the same seed kills the same sequence of workers. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ChaosOptions {
  /** Mean time between worker kills (each wait is 0.5–1.5 times this). */
  killEveryMs: number;
  /** How long the store stays down in its outage (longer than a tool's retries: 3 attempts a second apart). */
  outageMs: number;
  seed: number;
  log: (line: string) => void;
}

export class ChaosDriver {
  readonly kills: Disruption[] = [];
  readonly oneOffs: Disruption[] = [];
  private stopped = false;
  private readonly running: Promise<void>[] = [];

  private readonly shape: Shape;
  private readonly options: ChaosOptions;

  constructor(shape: Shape, options: ChaosOptions) {
    this.shape = shape;
    this.options = options;
  }

  /** `finished()`: the share of the runs finished (0..1), which paces the one-off disruptions. */
  start(finished: () => number): void {
    this.running.push(this.killLoop(), this.oneOffLoop(finished));
  }

  /** Stops after the disruption under way, leaving everything up. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  /** The one-off disruptions that did not happen (the runs finished first). */
  missed(): string[] {
    return this.plan().map(([, what]) => what).filter((what) => !this.oneOffs.some((d) => d.what === what));
  }

  /**
   * Every 0.5–1.5 × killEveryMs: SIGKILLs a random worker that is up, and starts its replacement without
   * waiting for it (a replacement takes seconds to poll, longer while the store or server is down), as
   * long as another worker is up.
   */
  private async killLoop(): Promise<void> {
    const random = seeded(this.options.seed);
    const restarts: Promise<void>[] = [];
    while (!this.stopped) {
      await sleep(this.options.killEveryMs * (0.5 + random()));
      if (this.stopped) break;
      const up = this.shape.workers.map((slot, i) => (slot.restarting ? -1 : i)).filter((i) => i >= 0);
      const pick = random();
      if (up.length < 2) continue;
      const slot = up[Math.floor(pick * up.length)]!;
      const pid = this.shape.workers[slot]!.host.child.pid;
      restarts.push(
        this.shape.killAndRestart(slot).then((killedAt) => {
          this.kills.push({ what: `SIGKILL worker ${slot + 1} (pid ${pid})`, at: killedAt, ms: Date.now() - killedAt });
          this.options.log(`chaos: SIGKILLed worker ${slot + 1} (pid ${pid}); its replacement polled after ${Date.now() - killedAt} ms`);
        }),
      );
    }
    await Promise.all(restarts);
  }

  private plan(): [number, string, () => Promise<void>][] {
    const { cluster, storePg } = this.shape;
    return [
      [0.1, 'Temporal server restart', async () => (await cluster.stopServer(), await cluster.startServer())],
      [0.25, "Temporal's PostgreSQL restart", async () => (await cluster.postgres.stop(), await cluster.postgres.start())],
      [0.4, "the store's PostgreSQL restart", async () => (await storePg.stop(), await storePg.start())],
      [0.55, `store outage of ${this.options.outageMs / 1000} s`, async () => (await storePg.stop(), await sleep(this.options.outageMs), await storePg.start())],
    ];
  }

  private async oneOffLoop(finished: () => number): Promise<void> {
    for (const [share, what, act] of this.plan()) {
      while (!this.stopped && finished() < share) await sleep(250);
      if (this.stopped) return;
      const at = Date.now();
      this.options.log(`chaos: ${what} (${Math.round(finished() * 100)} % of the runs finished)`);
      await act();
      this.oneOffs.push({ what, at, ms: Date.now() - at });
      this.options.log(`chaos: ${what} over after ${Date.now() - at} ms`);
    }
  }
}
