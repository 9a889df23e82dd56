/** The agent workflow's messages, shared by the workflow and the client. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { ChatMessage, RunState } from './types.ts';

export const stateQuery = defineQuery<RunState>('state');
export const transcriptQuery = defineQuery<ChatMessage[]>('transcript');

/** Carries the canceller's reason; the client sends it right before Temporal's cancel request. */
export const cancelReasonSignal = defineSignal<[{ reason: string }]>('cancelReason');

export const AGENT_WORKFLOW_TYPE = 'agentWorkflow';
/** Memo key holding the final state of a closed run (readable without a worker). */
export const FINAL_STATE_MEMO = 'finalState';
