/**
 * The two ways the store fails that callers must tell apart:
 * - StoreUnavailableError: the store cannot be reached right now (server down, network, locked file).
 *   Transient: an activity that meets it should fail *retryably* and succeed once the store is back.
 * - StoreIntegrityError: stored content does not match its content address (a tampered or corrupted
 *   transcript link or output). Not transient: a run must fail with it, never go on with a different context.
 */
import { AgentError } from '../wire/agent-error.ts';
import { FailureType } from '../wire/failures.ts';

export class StoreUnavailableError extends AgentError {
  override readonly name = 'StoreUnavailableError';
  readonly code = FailureType.storeUnavailable;

  /**
   * @param what the store, e.g. `PostgreSQL at 127.0.0.1:5432/agent` (never a password)
   * @param why the underlying failure, e.g. `connect ECONNREFUSED 127.0.0.1:5432`
   * @param check what an operator should check
   */
  constructor(what: string, why: string, check: string, options?: { cause?: unknown }) {
    super(`store unavailable: ${what} (${why}): ${check}`, options);
  }
}

export class StoreIntegrityError extends AgentError {
  override readonly name = 'StoreIntegrityError';
  readonly code = FailureType.storeIntegrity;
  /** The content address that was asked for. */
  readonly ref: string;
  /** The hash of the content actually found (or computed), when there is one. */
  readonly actual: string | undefined;

  constructor(message: string, ref: string, actual?: string) {
    super(message);
    this.ref = ref;
    this.actual = actual;
  }
}
