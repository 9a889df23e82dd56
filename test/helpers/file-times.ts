/**
 * How long each test file's tests took in earlier runs (.cache/test-times.json): test/run.ts starts the
 * longest files first and records the times of each run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CACHE_DIR } from '../../src/paths.ts';

const TEST_TIMES_FILE = path.join(CACHE_DIR, 'test-times.json');

/** Seconds per test file (relative to the project root); {} when no run recorded them or the file is unreadable. */
export function recordedTestTimes(): Record<string, number> {
  if (!existsSync(TEST_TIMES_FILE)) return {};
  try {
    const parsed = z.record(z.string(), z.number()).safeParse(JSON.parse(readFileSync(TEST_TIMES_FILE, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {}; // a torn write: the next run records them again
  }
}

/** Merges one run's times into the recorded ones. */
export function recordTestTimes(seconds: Record<string, number>): void {
  mkdirSync(CACHE_DIR, { recursive: true });
  const rounded = Object.fromEntries(Object.entries(seconds).map(([file, s]) => [file, Math.round(s * 10) / 10]));
  writeFileSync(TEST_TIMES_FILE, `${JSON.stringify({ ...recordedTestTimes(), ...rounded }, null, 2)}\n`);
}
