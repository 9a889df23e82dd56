/**
 * `durable-agent-harness/client`: start runs, read their state, approve, reject, answer and cancel, from
 * any Node service with a Temporal client. Loads no worker code (no Temporal native runtime, no model
 * client, no tools).
 *
 * @packageDocumentation
 */
export { AgentClient, AnswerRefusedError, ApprovalRefusedError, isTerminal, RunNotFoundError } from '../client/client.ts';
export type { AgentClientOptions, DecisionOptions } from '../client/client.ts';
export { InvalidRunInputError } from '../client/run-input.ts';
export { AgentSchedules, scheduleRunIdPrefix } from '../client/schedules.ts';
export type { AgentSchedule } from '../client/schedules.ts';
export { InvalidScheduleError, OVERLAP_POLICIES, ScheduleExistsError, ScheduleNotFoundError } from '../client/schedule-input.ts';
export type { OverlapPolicy, ScheduleInput } from '../client/schedule-input.ts';
export { runBuild, setCurrentBuild } from '../client/run-build.ts';
export type { RunBuild } from '../client/run-build.ts';
export type { RunFilter, RunSummary } from '../client/run-list.ts';
export { WorkspaceRefusedError } from '../tools/workspace-roots.ts';
export type { ModelCall, RunInput, RunLimits, RunPolicy } from '../wire/run-input.ts';
export type { ClaimWarning, ReceiptEntry, ReceiptOutcome } from '../wire/receipt.ts';
export type {
  ApprovalDecision,
  ChildRunSummary,
  Interruption,
  Pending,
  PendingApproval,
  PendingInput,
  RunResult,
  RunState,
  RunStatus,
  StopReason,
  Usage,
} from '../wire/types.ts';
