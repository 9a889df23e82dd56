/**
 * A run's receipt (what its side-effect calls really did) and the claim check's warnings, as they cross
 * the workflow ↔ client boundary: plain data. Built by src/claims/receipt.ts, checked against the final
 * answer by src/claims/check-claims.ts. The shapes are zod schemas (run-state.ts); their types are
 * inferred here, imported as types only.
 */
import type { z } from 'zod';
import type { claimWarningSchema, receiptEntrySchema } from './run-state.ts';

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
export type ReceiptEntry = z.infer<typeof receiptEntrySchema>;

export type Receipt = readonly ReceiptEntry[];

/** A claim in the final answer that the receipt contradicts. */
export type ClaimWarning = z.infer<typeof claimWarningSchema>;
