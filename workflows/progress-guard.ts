/**
 * Notices a model that is not making progress: the same call (tool + arguments) over and over, or turns
 * whose tool results were all seen before. Warns once, then says stop. Not pure: each check updates the
 * guard state it is given (the loop's, carried across continue-as-new) and returns a verdict; no I/O, so
 * it is sandbox-safe and replays the same.
 */
import type { ProgressGuardState } from './carried-state.ts';
import { sha256Hex } from '../src/wire/sha256.ts';

export type GuardVerdict = { action: 'ok' } | { action: 'warn'; message: string } | { action: 'stop'; detail: string };

export function newProgressGuard(): ProgressGuardState {
  return { lastCall: null, repeats: 0, staleTurns: 0, seenResults: [], warned: false };
}

/** One tool call, before it runs. `max` 0 disables the check. */
export function checkCall(guard: ProgressGuardState, signature: string, max: number): GuardVerdict {
  guard.repeats = guard.lastCall === signature ? guard.repeats + 1 : 1;
  guard.lastCall = signature;
  if (max <= 0) return { action: 'ok' };
  const name = signature.slice(0, signature.indexOf(':'));
  if (guard.repeats >= max) return { action: 'stop', detail: `${name} was called with the same arguments ${guard.repeats} times in a row` };
  if (guard.repeats === max - 1 && !guard.warned) {
    guard.warned = true;
    return { action: 'warn', message: `You have called ${name} with the same arguments ${guard.repeats} times in a row and are repeating yourself. Use what you already have, change approach, or answer; one more identical call ends the run.` };
  }
  return { action: 'ok' };
}

/** The tool results of one turn. A turn is stale when every result was seen before. */
export function checkTurn(guard: ProgressGuardState, results: readonly string[], max: number): GuardVerdict {
  if (!results.length) return { action: 'ok' };
  const hashes = results.map((r) => sha256Hex(r).slice(0, 16));
  const stale = hashes.every((h) => guard.seenResults.includes(h));
  for (const h of hashes) if (!guard.seenResults.includes(h)) guard.seenResults.push(h);
  guard.staleTurns = stale ? guard.staleTurns + 1 : 0;
  if (max <= 0) return { action: 'ok' };
  if (guard.staleTurns >= max) return { action: 'stop', detail: `${guard.staleTurns} turns in a row brought only tool results already seen` };
  if (guard.staleTurns === max - 1 && !guard.warned) {
    guard.warned = true;
    return { action: 'warn', message: `Your last ${guard.staleTurns} turns brought nothing new. Answer with what you have, or try something different; the run ends if this goes on.` };
  }
  return { action: 'ok' };
}

/** How a warning reaches the model: appended to the tool message, marked as the harness's words. */
export function withWarning(content: string, message: string): string {
  return `${content}\n\n[harness] ${message}`;
}
