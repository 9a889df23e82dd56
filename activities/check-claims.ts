/**
 * The claim check on the worker: a final answer against the run's receipt, with the claim specs of the tools
 * the run offered. It runs on the worker, so the English lexicon it reads sentences with (`compromise`,
 * WordNet) stays out of the workflow bundle, and its result is recorded in history (a replay reads it from
 * there; a later checker does not change what an old run said). A run checks its answer with the model call
 * that gave it (`activities/call-model.ts`, `claimCheck`), or, when that call could not (the claim judge ran
 * after it, a receipt too large to send with every call, a run recorded before), with the local activity
 * `checkAnswerClaims`.
 */
import { checkClaims } from '../src/claims/check-claims.ts';
import { claimSpecsOf } from '../src/claims/default-claim-spec.ts';
import { mergeWarnings } from '../src/claims/judge-claims.ts';
import { withUnknownVerbs } from '../src/wordnet/wordnet-verbs.ts';
import { toolContracts } from '../src/tools/contracts.ts';
import type { ToolRegistry } from '../src/tools/registry.ts';
import { claimCheckTool } from '../src/claims/claim-check-tool.ts';
import type { ClaimCheckInput } from '../src/wire/claim-check.ts';
import type { ClaimWarning } from '../src/wire/receipt.ts';

/** Checks an answer's claims: synchronous, the same for the model call and the local activity. */
export type ClaimChecker = (input: ClaimCheckInput) => ClaimWarning[];

/**
 * A tool the run offered that states no claims gets the ones its implementation declares here
 * (`defineTool({ claims })`), else a default. The claim judge's warnings (`judged`) are added after the
 * rule check's, unless one of those names the same tool and object.
 */
export function createClaimChecker(tools: ToolRegistry): ClaimChecker {
  function check(input: ClaimCheckInput): ClaimWarning[] {
    const specs = claimSpecsOf(input.tools.map((t) => ({ ...t, claims: t.claims ?? tools.get(t.name)?.claims })));
    // Verbs no family knows get a kind from WordNet (read once per worker process, on first use).
    return mergeWarnings(checkClaims(input.answer, input.receipt, withUnknownVerbs(input.answer, specs)), input.judged ?? []);
  }
  // The first check of a process builds the built-in tools' matchers and reads WordNet (up to seconds on a
  // busy machine): done once in the background at start, not inside a run's model call or last workflow
  // task, which would be held that long (and a state read during it would answer from the memo).
  setImmediate(() => {
    try {
      check({ answer: WARM_UP_ANSWER, receipt: [], tools: toolContracts.map(claimCheckTool) });
    } catch {
      // A warm-up that fails leaves the first real check to pay the cost, and to report what fails.
    }
  });
  return check;
}

/** The local activity: for answers their model call did not check. */
export function createCheckAnswerClaims(check: ClaimChecker) {
  return function checkAnswerClaims(input: ClaimCheckInput): Promise<ClaimWarning[]> {
    return Promise.resolve(check(input));
  };
}

/** Words of every built-in kind, and a verb only WordNet knows, so the warm-up loads all of it. */
const WARM_UP_ANSWER = 'I deleted old.log, emailed alice@example.com, wrote notes.md, ran `npm test` and vacuumed the cache.';
