/**
 * A run's receipt (what its side-effect calls really did) and the claim check's warnings, as they cross
 * the workflow ↔ client boundary: plain data. Built by src/claims/receipt.ts, checked against the final
 * answer by src/claims/check-claims.ts.
 */

export const RECEIPT_OUTCOMES = ['done', 'failed', 'rejected', 'denied', 'deduplicated', 'not_run', 'interrupted', 'pending'] as const;
/**
 * - `done`: the tool ran and reported success;
 * - `failed`: it ran and reported an error (`detail`);
 * - `rejected`: a human (or the approval timeout) refused it (`detail`: the reason, or "no reason");
 * - `denied`: the policy refused it (`detail`: why);
 * - `deduplicated`: answered from an identical earlier call, not run;
 * - `not_run`: approved or waiting for approval, and the run stopped first (`detail`: e.g. "cancelled");
 * - `interrupted`: started, and the run stopped before its result came back: its effect is unknown;
 * - `pending`: the run is still going (`detail`: "waiting for approval", "approved", "running"). A
 *   finished run's receipt has none.
 */
export type ReceiptOutcome = (typeof RECEIPT_OUTCOMES)[number];

/** One side-effect call of a run. */
export interface ReceiptEntry {
  /** The harness's key for the call (unique in the run). */
  callKey: string;
  tool: string;
  /** The key arguments (the object the call acts on), redacted, as short strings. */
  args: Record<string, string>;
  outcome: ReceiptOutcome;
  /** The error, the rejection reason ("no reason" when none was given), the denial, or why it did not run. */
  detail?: string;
}

export type Receipt = readonly ReceiptEntry[];

/** A claim in the final answer that the receipt contradicts. */
export interface ClaimWarning {
  tool: string;
  /** The object the claim names (a path, a recipient), when it names one. */
  object?: string;
  /** The clause of the answer that makes the claim. */
  clause: string;
  /** The words that make it a claim ("removed", "has been deleted", "gone"). */
  verb: string;
  /** What the receipt has instead: the entries for that tool (and object), or "no … call". */
  receipt: string;
  /** One line for people: `delete_file access.log: "I removed access.log" — receipt: rejected: … (no reason)`. */
  message: string;
}
