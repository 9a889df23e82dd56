/** What every command shares: how people invoke the CLI, its options, a runtime for one command, usage errors. */
import { parseArgs } from 'node:util';
import { INSTALLED } from '../paths.ts';
import { openRuntime, type Runtime, type RuntimeOptions } from './runtime.ts';
import { AgentError } from '../wire/agent-error.ts';
import { parseErrorMessage } from './command-line.ts';

/** How people invoke this CLI: in this repository an npm script (it runs on the project's pinned Node 22); installed, the package's bin. */
export const AGENT = INSTALLED ? 'npx durable-agent-harness' : 'npm run agent --';

export const CLI_OPTIONS = {
  model: { type: 'string' },
  'max-turns': { type: 'string' },
  'max-budget': { type: 'string' },
  'max-wall-ms': { type: 'string' },
  workspace: { type: 'string' },
  tools: { type: 'string' },
  'fatal-tool-errors': { type: 'boolean' },
  'model-call': { type: 'string' },
  'no-worker': { type: 'boolean' },
  scripted: { type: 'boolean' },
  'no-wait': { type: 'boolean' },
  reason: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  by: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  status: { type: 'string' },
  pending: { type: 'boolean' },
  tool: { type: 'string' },
  limit: { type: 'string' },
  out: { type: 'string' },
  'as-task': { type: 'string' },
  policy: { type: 'string' },
  limits: { type: 'string' },
  lenient: { type: 'boolean' },
  'tool-mode': { type: 'string' },
  'extra-approvals': { type: 'string' },
  // worker, upgrade (Worker Versioning)
  deployment: { type: 'string' },
  'build-id': { type: 'string' },
  versioning: { type: 'string' },
  // schedule create
  agent: { type: 'string' },
  cron: { type: 'string' },
  every: { type: 'string' },
  'time-zone': { type: 'string' },
  overlap: { type: 'string' },
  'catchup-window': { type: 'string' },
  jitter: { type: 'string' },
  paused: { type: 'boolean' },
  'daily-budget': { type: 'string' },
  // gc
  'older-than': { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseCli(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: CLI_OPTIONS });
  } catch (error) {
    throw new UsageError(`${parseErrorMessage(error)} The options: ${AGENT} --help`);
  }
}

/** One invocation: the command, its positional arguments after the command, and the options. */
export interface Invocation {
  command: string;
  rest: string[];
  values: ReturnType<typeof parseCli>['values'];
}

export const log = (line: string): void => console.error(line);

export class UsageError extends AgentError {
  override readonly name = 'UsageError';
  readonly code = 'Usage';
}

type NumberOptionName = { [K in keyof typeof CLI_OPTIONS]: (typeof CLI_OPTIONS)[K]['type'] extends 'string' ? K : never }[keyof typeof CLI_OPTIONS];

const NUMBER_KINDS = {
  count: { test: (n: number) => Number.isInteger(n) && n >= 1, what: 'a whole number of 1 or more' },
  amount: { test: (n: number) => n > 0, what: 'an amount above 0 (USD)' },
  port: { test: (n: number) => Number.isInteger(n) && n >= 0 && n <= 65_535, what: 'a port number (0–65535; 0 picks a free one)' },
} as const;

/** A numeric option (undefined when not given), or a usage error naming it — read before anything starts. */
export function numberOption(values: Invocation['values'], name: NumberOptionName, kind: keyof typeof NUMBER_KINDS): number | undefined {
  const text = values[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !NUMBER_KINDS[kind].test(n)) throw new UsageError(`--${name} is "${text}": give ${NUMBER_KINDS[kind].what}.`);
  return n;
}

/** `--max-turns`, `--max-budget` and `--max-wall-ms` as run limits (those given). */
export function limitsOption(values: Invocation['values']): { maxTurns?: number; maxBudgetUsd?: number; maxWallMs?: number } {
  const maxTurns = numberOption(values, 'max-turns', 'count');
  const maxBudgetUsd = numberOption(values, 'max-budget', 'amount');
  const maxWallMs = numberOption(values, 'max-wall-ms', 'count');
  return { ...(maxTurns !== undefined ? { maxTurns } : {}), ...(maxBudgetUsd !== undefined ? { maxBudgetUsd } : {}), ...(maxWallMs !== undefined ? { maxWallMs } : {}) };
}

/** The run id a command was given, or a usage error that shows how to give it. */
export function runIdOf({ command, rest }: Invocation): string {
  if (!rest[0]) throw new UsageError(`"${command}" needs a run id: ${AGENT} ${command} <runId>`);
  return rest[0];
}

export const NO_WORKER: Omit<RuntimeOptions, 'log'> = { worker: false };
/** demo, run, serve: a worker in this process, serving the scripted model too (a test and demo facility). */
export const WITH_SCRIPTED_WORKER: Omit<RuntimeOptions, 'log'> = { worker: true, scriptedModel: true };

export async function withRuntime(options: Omit<RuntimeOptions, 'log'>, body: (rt: Runtime) => Promise<number>): Promise<number> {
  const rt = await openRuntime({ ...options, log });
  try {
    return await body(rt);
  } finally {
    await rt.close();
  }
}

export function untilSignal(): Promise<void> {
  // Signal listeners alone keep no process up: `server` pointed at a running Temporal had nothing else to wait on.
  const alive = setInterval(() => {}, 2 ** 30);
  return new Promise((resolve) => {
    const done = () => {
      clearInterval(alive);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
