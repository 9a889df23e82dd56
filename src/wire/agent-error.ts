/**
 * The base of the harness's own errors. Each class keeps its `name` (what the CLI, logs and clients see:
 * never changed) and gives a stable `code` to branch on instead of the message: the failure type
 * (failures.ts) where the error becomes one, else its name without `Error` (HttpError's is its body's
 * `error` kind). Messages say what to do next.
 *
 * `isInstance` is `instanceof` that also holds for an error made by another copy of the module (the class
 * is looked up by name on errors marked as ours): `StoreUnavailableError.isInstance(error)`,
 * `AgentError.isInstance(error)` for any of them. Sandbox-safe (no Node built-ins).
 */
const MARKER = Symbol.for('durable-agent-harness.AgentError');

export abstract class AgentError extends Error {
  /** Stable across releases; a failure type where the error becomes one. */
  abstract readonly code: string;

  static isInstance<T extends AgentError>(this: abstract new (...args: never[]) => T, error: unknown): error is T {
    if (typeof error !== 'object' || error === null || !(MARKER in error)) return false;
    return (this as unknown) === AgentError || error instanceof this || (error as { name?: unknown }).name === this.name;
  }
}

// On the prototype, not on each error: inherited, and not shown when an error is printed.
Object.defineProperty(AgentError.prototype, MARKER, { value: true });
