/**
 * A side-effect ledger: one JSONL file per tool, keyed by idempotency key. A retried activity (same
 * key) finds the first attempt's entry and reports its outcome instead of acting again.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface LedgerEntry {
  key: string;
  /** `started` is written before the effect, `done` after it, with the outcome reported. */
  phase: 'started' | 'done';
  detail: Record<string, unknown>;
  outcome?: string;
  at: string;
}

export class EffectLedger {
  readonly file: string;

  constructor(dir: string, tool: string) {
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `${tool}.jsonl`);
  }

  /** The latest entry for `key`: `done` wins over `started`. */
  lookup(key: string): LedgerEntry | undefined {
    const entries = this.entries().filter((e) => e.key === key);
    return entries.find((e) => e.phase === 'done') ?? entries.at(-1);
  }

  started(key: string, detail: Record<string, unknown>): void {
    this.append({ key, phase: 'started', detail, at: new Date().toISOString() });
  }

  done(key: string, detail: Record<string, unknown>, outcome: string): void {
    this.append({ key, phase: 'done', detail, outcome, at: new Date().toISOString() });
  }

  entries(): LedgerEntry[] {
    if (!existsSync(this.file)) return [];
    return readFileSync(this.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LedgerEntry);
  }

  private append(entry: LedgerEntry): void {
    appendFileSync(this.file, JSON.stringify(entry) + '\n');
  }
}
