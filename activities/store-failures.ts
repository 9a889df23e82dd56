/**
 * How store trouble reaches Temporal. An unreachable store fails the activity at once, without Temporal's
 * retries (which would use up a tool's own attempts): the workflow waits for the store and calls again
 * (`workflows/store-outage.ts`). Content that does not match its hash fails the run, never silently giving
 * the model a different context.
 */
import { ApplicationFailure } from '@temporalio/common';
import { StoreIntegrityError, StoreUnavailableError } from '../src/store/errors.ts';

export function isStoreError(error: unknown): boolean {
  return error instanceof StoreUnavailableError || error instanceof StoreIntegrityError;
}

export function storeFailure(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return ApplicationFailure.nonRetryable(error.message, error.code);
  if (error instanceof StoreIntegrityError) return ApplicationFailure.nonRetryable(`store integrity: ${error.message}`, error.code);
  return error;
}

/** `promise`, with store errors as the failures above. */
export async function orStoreFailure<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw storeFailure(error);
  }
}
