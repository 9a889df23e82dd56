/**
 * The run an activity works for (its workflow id), as the owner of the transcript links and outputs it
 * stores: `gc` removes content-addressed rows only when no kept run owns them (src/store/retention.ts).
 * Undefined outside an activity (a bench, a test calling the code directly): the row then has no owner
 * and is never collected.
 */
import { Context } from '@temporalio/activity';

export function owningRun(): string | undefined {
  try {
    return Context.current().info.workflowExecution?.workflowId;
  } catch {
    return undefined;
  }
}
