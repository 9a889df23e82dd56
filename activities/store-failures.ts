/**
 * How store trouble reaches Temporal: an unreachable store is an ordinary retryable activity failure
 * ("store unavailable: …", shown in the run's state while it retries); content that does not match its
 * hash fails the run, never silently giving the model a different context.
 */
import { ApplicationFailure } from '@temporalio/common';
import { StoreIntegrityError, StoreUnavailableError } from '../src/store/errors.ts';
import { FailureType } from '../src/wire/failures.ts';

export function isStoreError(error: unknown): boolean {
  return error instanceof StoreUnavailableError || error instanceof StoreIntegrityError;
}

export function storeFailure(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return ApplicationFailure.retryable(error.message, FailureType.storeUnavailable);
  if (error instanceof StoreIntegrityError) return ApplicationFailure.nonRetryable(`store integrity: ${error.message}`, FailureType.storeIntegrity);
  return error;
}
