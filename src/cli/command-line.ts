/**
 * Command lines of the project's scripts (bench, eval, eval:claims, test:chaos, test:mutants): `--help`
 * prints the usage and exits 0; a bad option prints one line saying what is wrong, then the usage, and exits 2
 * before anything has started — never a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line node:util's parser refused, in one sentence (its advice about `--` is for node, not npm). */
export function parseErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.\s+To specify a positional argument[\s\S]*$/, '.');
}

/** Prints `name: message`, a blank line and the usage to stderr, and exits 2. */
export function usageExit(name: string, usage: string, message: string): never {
  console.error(`${name}: ${message}\n\n${usage}`);
  process.exit(2);
}

/** `--option`'s value as a whole number of 1 or more, or a usage exit naming it (`text` undefined: `fallback`). */
export function countOption(name: string, usage: string, option: string, text: string | undefined, fallback: number): number {
  const n = Number(text ?? fallback);
  return Number.isInteger(n) && n >= 1 ? n : usageExit(name, usage, `--${option}: ${text} is not a whole number above 0`);
}

/** Whether the arguments ask for help (`--help` or `-h` before a `--` that ends the options). */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** The script's flags and positionals (`process.argv` unless `config.args`); `--help` and bad options end the process as described above. */
export function parseCommandLine<T extends ParseArgsConfig>(name: string, usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  if (asksForHelp(config.args ?? process.argv.slice(2))) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    return usageExit(name, usage, parseErrorMessage(error));
  }
}

/**
 * Ctrl-C (SIGINT) or SIGTERM ends the script through `process.exit`, so its 'exit' hooks run: a Temporal dev
 * server it started runs in its own process group (the terminal's Ctrl-C does not reach it) and is stopped by
 * such a hook, as are throwaway PostgreSQL servers. Node's default for these signals ends the process without
 * its 'exit' hooks, and the server was left running. For scripts with no Ctrl-C handling of their own.
 */
export function exitOnSignals(): void {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
}
