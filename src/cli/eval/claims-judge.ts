/**
 * The claim judge over labelled answers (`npm run eval:claims -- --judge <model>`, which merges its warnings
 * with the rule check's as a run with `policy.claimJudge` does): the same model call the `judgeClaims`
 * activity makes, its reading settled by the receipt (src/claims/judge-claims.ts). The model
 * is routed as a worker routes it: `scripted:*` to the scripted model (this process serves it unless
 * AGENT_SCRIPTED_MODEL_URL names a server), `provider/model` by AGENT_PROVIDERS, a bare name to
 * OPENAI_BASE_URL with OPENAI_API_KEY.
 */
import { askJudge } from '../../../activities/judge-claims.ts';
import type { ClaimSpecs } from '../../claims/claim-specs.ts';
import { judgedWarnings, type JudgeTool } from '../../claims/judge-claims.ts';
import { isRefusal, routeModel, isScriptedModel, type ModelEndpoints, type ModelRoute } from '../../providers/model-route.ts';
import { providersFromEnv } from '../../providers/providers-file.ts';
import { costOf } from '../../wire/pricing.ts';
import type { ClaimWarning, Receipt } from '../../wire/receipt.ts';

/** What the judge cost over the answers: its tokens, priced as the route's model, and the replies it could not read. */
export interface JudgeSpend {
  model: string;
  answers: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** Calls that failed (the answer is scored on the rules alone), and the first one's error. */
  failed: number;
  firstError?: string;
}

/** One answer to judge: its receipt, the specs its claims are read with, the tools the judge may name. */
export interface JudgeItem {
  answer: string;
  receipt: Receipt;
  specs: ClaimSpecs;
  offered: readonly JudgeTool[];
}

/** The judge's warnings for each item (none where its call failed), `concurrency` answers at a time. */
export async function judgeAll(
  items: readonly JudgeItem[],
  model: string,
  options: { concurrency?: number; progress?: (done: number, total: number) => void } = {},
): Promise<{ warnings: ClaimWarning[][]; spend: JudgeSpend }> {
  const scripted = isScriptedModel(model) && !process.env.AGENT_SCRIPTED_MODEL_URL ? await startScripted() : null;
  try {
    const route = judgeRoute(model, scripted?.baseUrl);
    const spend: JudgeSpend = { model, answers: items.length, promptTokens: 0, completionTokens: 0, costUsd: 0, failed: 0 };
    const warnings: ClaimWarning[][] = items.map(() => []);
    let next = 0;
    let done = 0;
    const worker = async () => {
      for (let i = next++; i < items.length; i = next++) {
        const { answer, receipt, specs, offered } = items[i]!;
        try {
          const { claims, usage } = await askJudge(route, offered, answer);
          warnings[i] = judgedWarnings(claims, receipt, specs);
          spend.promptTokens += usage.promptTokens;
          spend.completionTokens += usage.completionTokens;
          spend.costUsd += costOf(usage, route.price);
        } catch (error) {
          spend.failed++;
          spend.firstError ??= (error as Error).message;
        }
        options.progress?.(++done, items.length);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
    return { warnings, spend };
  } finally {
    await scripted?.close();
  }
}

/** The judge model has no route (no key, no provider, no price): nothing was asked. */
export class JudgeRouteError extends Error {
  override readonly name = 'JudgeRouteError';
}

function judgeRoute(model: string, scriptedBaseUrl: string | undefined): ModelRoute {
  const endpoints: ModelEndpoints = {
    scriptedBaseUrl: scriptedBaseUrl ?? process.env.AGENT_SCRIPTED_MODEL_URL,
    providerBaseUrl: process.env.OPENAI_BASE_URL,
    providerApiKey: process.env.OPENAI_API_KEY,
    providers: providersFromEnv(),
  };
  const route = routeModel(model, endpoints);
  if (isRefusal(route)) throw new JudgeRouteError(`--judge ${model}: ${route.message}`);
  return route;
}

async function startScripted() {
  const { startScriptedModelServer, scenarioDirsFromEnv } = await import('../../scripted-model/server.ts');
  return startScriptedModelServer({ scenarioDirs: scenarioDirsFromEnv() });
}
