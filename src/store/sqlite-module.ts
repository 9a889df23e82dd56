/**
 * Loads Node's built-in `node:sqlite` without its one-time "SQLite is an experimental feature"
 * ExperimentalWarning. Node 22 emits it from the module's loader through
 * `process.emitWarning(message, 'ExperimentalWarning')`, synchronously, on first load; so for the
 * duration of that load only, `process.emitWarning` drops exactly that warning and passes every other
 * one through. No global flag (`--no-warnings`, `--disable-warning`) is used, and every other warning —
 * including other experimental features — still shows.
 */
import type * as Sqlite from 'node:sqlite';

let loaded: typeof Sqlite | undefined;

export function isSqliteExperimentalWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const message = typeof warning === 'string' ? warning : warning instanceof Error ? warning.message : '';
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : typeof typeOrOptions === 'object' && typeOrOptions !== null && 'type' in typeOrOptions
        ? (typeOrOptions as { type?: unknown }).type
        : warning instanceof Error
          ? warning.name
          : undefined;
  return type === 'ExperimentalWarning' && message.startsWith('SQLite is an experimental feature');
}

export function nodeSqlite(): typeof Sqlite {
  if (loaded) return loaded;
  // Kept unbound on purpose: it is put back exactly as it was, and called with `this` passed through.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = process.emitWarning;
  const filtered = function (this: unknown, warning: string | Error, ...rest: unknown[]): void {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    (original as (...args: unknown[]) => void).call(this, warning, ...rest);
  };
  process.emitWarning = filtered;
  try {
    loaded = process.getBuiltinModule('node:sqlite');
  } finally {
    if (process.emitWarning === filtered) process.emitWarning = original;
  }
  return loaded;
}
