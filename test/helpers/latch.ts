/**
 * Latches for scripted scenarios, which run in the test process (inside its scripted model server): a
 * model call that waits for the test to say "go" instead of sleeping for a guessed time.
 */
import { existsSync } from 'node:fs';

/**
 * Resolves once `file` exists. Polls every 50 ms on an unref'd timer, so a scenario still waiting when
 * the test is over (its worker killed) never keeps the test process alive.
 */
export async function untilExists(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 50).unref());
}

/** True the first time it is called with `key` in this process, false afterwards. */
export function firstTime(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/** The run's goal: the first user message of a scripted request. */
export function goalOf(messages: readonly { role: string; content?: string | null }[]): string {
  return messages.find((m) => m.role === 'user')?.content ?? '';
}
