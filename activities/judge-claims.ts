/**
 * The claim judge's model call (`policy.claimJudge`): the final answer in, structured claims out (parsed
 * under a zod schema; a reply that is not such JSON gives none). An ordinary activity: cancelled with the
 * run, retried as Temporal retries, its result (claims and usage) recorded in history for replays.
 */
import { CancelledFailure, Context } from '@temporalio/activity';
import { claimSpecsOf } from '../src/claims/default-claim-spec.ts';
import { judgedWarnings, judgeSystemPrompt, judgeTools, parseJudgeReply, type JudgedClaim, type JudgeTool } from '../src/claims/judge-claims.ts';
import type { ToolRegistry } from '../src/tools/registry.ts';
import type { ClaimCheckInput } from '../src/wire/claim-check.ts';
import type { ClaimWarning } from '../src/wire/receipt.ts';
import type { Usage } from '../src/wire/types.ts';
import type { AgentStore } from '../src/store/store.ts';
import { ActivityHeartbeats } from './heartbeats.ts';
import { clientFor, routeFor, type ModelEndpoints, type ModelRoute } from './model-endpoints.ts';
import { orStoreFailure } from './store-failures.ts';

export interface JudgeClaimsInput extends ClaimCheckInput {
  runId: string;
  /** The run's model: the judge's price is the run's. */
  model: string;
}

export interface JudgeClaimsResult {
  /** The judged claims asserted as done that the receipt does not back. */
  warnings: ClaimWarning[];
  claims: JudgedClaim[];
  usage: Usage;
}

export function createJudgeClaims(endpoints: ModelEndpoints, registry: ToolRegistry, store: AgentStore) {
  return async function judgeClaims(input: JudgeClaimsInput): Promise<JudgeClaimsResult> {
    const ctx = Context.current();
    // Beats, and stops on the run's announced stop, like a model call (`heartbeats.ts`).
    const heartbeats = await orStoreFailure(ActivityHeartbeats.start(ctx, store, input.runId));
    try {
      return await judge(input, heartbeats.signal);
    } catch (error) {
      if (heartbeats.signal.aborted) await heartbeats.untilTemporalCancels('The claim judge');
      throw ctx.cancellationSignal.aborted ? new CancelledFailure('claim judge cancelled') : error;
    } finally {
      heartbeats.close();
    }
  };

  async function judge(input: JudgeClaimsInput, signal: AbortSignal): Promise<JudgeClaimsResult> {
    const specs = claimSpecsOf(input.tools.map((t) => ({ ...t, claims: t.claims ?? registry.get(t.name)?.claims })));
    const { claims, usage } = await askJudge(routeFor(input.model, endpoints), judgeTools(input.tools, specs), input.answer, signal);
    return { warnings: judgedWarnings(claims, input.receipt, specs), claims, usage };
  }
}

/**
 * The judge's reading of `answer`: one chat completion with the tools it may name, parsed under the claims'
 * zod schema (a reply that is no such JSON gives none). Also what `npm run eval:claims -- --judge` measures.
 */
export async function askJudge(
  route: ModelRoute,
  tools: readonly JudgeTool[],
  answer: string,
  signal?: AbortSignal,
): Promise<{ claims: JudgedClaim[]; usage: Usage }> {
  const completion = await clientFor(route).chat.completions.create(
    {
      model: route.model,
      messages: [
        { role: 'system', content: judgeSystemPrompt(tools) },
        { role: 'user', content: answer },
      ],
      stream: false,
    },
    { signal },
  );
  return {
    claims: parseJudgeReply(completion.choices[0]?.message.content ?? ''),
    usage: { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 },
  };
}
