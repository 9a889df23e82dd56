/** What the workflow gives the claim-check activity (JSON-safe): the answer, the receipt, the tools the run offered. */
import type { ClaimSpec } from '../claims/claim-specs.ts';
import type { ClaimWarning, Receipt } from './receipt.ts';

/** What a tool's contract tells the check: its name, description, flags, argument names and declared claims. */
export interface ClaimCheckTool {
  name: string;
  description: string;
  readOnly: boolean;
  params: string[];
  claims?: ClaimSpec;
}

export interface ClaimCheckInput {
  answer: string;
  receipt: Receipt;
  tools: ClaimCheckTool[];
  /** The claim judge's warnings, when it ran (`policy.claimJudge`). */
  judged?: ClaimWarning[];
}
