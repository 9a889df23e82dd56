/**
 * Writes each run's trace as JSONL under `<dataDir>/traces/<runId>.jsonl`. Workflow events carry a
 * sequence number from the workflow; a line whose seq was already written (a workflow task retried on
 * another worker after a crash) is dropped, so the stream never holds a duplicate.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TraceLine } from '../workflows/trace-events.ts';

export class TraceWriter {
  private readonly lastSeq = new Map<string, number>();

  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  fileOf(runId: string): string {
    return path.join(this.dir, `${encodeURIComponent(runId)}.jsonl`);
  }

  write(line: TraceLine): void {
    const last = this.lastSeq.get(line.runId) ?? this.lastSeqOnDisk(line.runId);
    if (line.seq <= last) return;
    appendFileSync(this.fileOf(line.runId), JSON.stringify(line) + '\n');
    this.lastSeq.set(line.runId, line.seq);
  }

  private lastSeqOnDisk(runId: string): number {
    const file = this.fileOf(runId);
    if (!existsSync(file)) return 0;
    let last = 0;
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (!text) continue;
      const seq = (JSON.parse(text) as Partial<TraceLine>).seq;
      if (typeof seq === 'number' && seq > last) last = seq;
    }
    return last;
  }
}

export function readTrace(dir: string, runId: string): TraceLine[] {
  const file = path.join(dir, `${encodeURIComponent(runId)}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text) as TraceLine);
}
