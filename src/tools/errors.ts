import { AgentError } from '../wire/agent-error.ts';
import { FailureType } from '../wire/failures.ts';

/**
 * Thrown by a tool whose failure is transient (a flaky network, a busy lock): Temporal retries the tool
 * under its retry policy. Any other error a tool throws is final and goes back to the model as text.
 */
export class RetryableToolError extends AgentError {
  override readonly name = 'RetryableToolError';
  readonly code = FailureType.toolRetryable;
}
