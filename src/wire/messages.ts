/** The agent workflow's messages, shared by the workflow and the client. */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AnswerRequest, ApprovalDecision, ApproveRequest, ChatMessage, RejectRequest, RunState } from './types.ts';

export const stateQuery = defineQuery<RunState>('state');
/** The conversation so far, with redacted argument fields masked. */
export const transcriptQuery = defineQuery<ChatMessage[]>('transcript');

/**
 * Internal: the unredacted transcript of the current execution and the store head it starts from, for a
 * worker whose transcript store lacks a link. Not for display (use `transcript`).
 */
export const modelContextQuery = defineQuery<{ base: string | null; messages: ChatMessage[] }>('modelContext');

/** Carries the canceller's reason; the client sends it right before Temporal's cancel request. */
export const cancelReasonSignal = defineSignal<[{ reason: string }]>('cancelReason');

/** Validated: an unknown or already-decided call key, or a stale argsHash, is refused and the run is untouched. */
export const approveUpdate = defineUpdate<ApprovalDecision, [ApproveRequest]>('approve');
export const rejectUpdate = defineUpdate<ApprovalDecision, [RejectRequest]>('reject');
/** Fire-and-forget forms of the same; an invalid one is recorded in the trace and otherwise ignored. */
export const approveSignal = defineSignal<[ApproveRequest]>('approve');
export const rejectSignal = defineSignal<[RejectRequest]>('reject');

/** A running tool's latest progress label (sent by the tool activity, throttled). `callId`: v0.2 senders. */
export const toolProgressSignal = defineSignal<[{ callKey?: string; callId?: string; label: string }]>('toolProgress');

/** Answers the pending ask_user question; refused unless the run is waiting for input. */
export const answerUpdate = defineUpdate<{ callKey: string }, [AnswerRequest]>('answer');

export const AGENT_WORKFLOW_TYPE = 'agentWorkflow';
/** Memo key holding the final state of a closed run (readable without a worker). */
export const FINAL_STATE_MEMO = 'finalState';
/** Memo key holding what a running run is doing and waiting for (readable without a worker). */
export const LIVE_STATE_MEMO = 'liveState';
