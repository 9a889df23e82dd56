/**
 * The limits a run gets where its input sets none. Apart from the schema (run-input.ts) so that the
 * workflow, which needs only these values and the types, does not build the zod schemas in every run.
 */
import type { RunLimits } from './run-input.ts';

export const DEFAULT_LIMITS: RunLimits = { maxTurns: 20, maxBudgetUsd: 1.0, maxRepeatedCalls: 3, maxStaleTurns: 8, maxPolicyDenials: 3, maxStoreOutageMs: 30 * 60_000 };
