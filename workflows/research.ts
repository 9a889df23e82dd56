/**
 * The `research` tool: the same agent loop as a child workflow, with read-only tools, its own transcript,
 * prompt and limits. Its spend rolls up into this run's totals and counts against this run's budget; a
 * child that fails or hits a limit is an error text for the model, not a crash of this run.
 */
import * as wf from '@temporalio/workflow';
import { contractsByName } from '../src/tools/contracts.ts';
import type { agentWorkflow } from './agent.ts';
import { AGENT_WORKFLOW_TYPE } from '../src/wire/messages.ts';
import { RESEARCH_SYSTEM_PROMPT } from './prompts.ts';
import { toolErrorText } from '../src/wire/failures.ts';
import type { ToolStep } from './tool-step.ts';
import type { ToolOutcome } from '../src/wire/types.ts';
import { researchChildRunId } from '../src/wire/run-ids.ts';
import { DEFAULT_LIMITS } from '../src/wire/default-limits.ts';
import { researchSummary, runStaticDetails } from '../src/wire/summaries.ts';

/** Research sub-agent limits when the run sets none. */
const RESEARCH_DEFAULTS = { maxTurns: 6, maxBudgetUsd: 0.05 };

export async function runResearch({ run, input, limits, offered }: Pick<ToolStep, 'run' | 'input' | 'limits' | 'offered'>, runKey: string, callKey: string, question: string): Promise<ToolOutcome> {
  const startedMs = Date.now();
  const budgetLeft = limits.maxBudgetUsd - run.state.totalCostUsd;
  const maxBudgetUsd = Math.min(input.research?.maxBudgetUsd ?? RESEARCH_DEFAULTS.maxBudgetUsd, budgetLeft);
  if (maxBudgetUsd <= 0) return { ok: false, content: toolErrorText('no budget is left for research in this run'), ms: 0 };
  const childRunId = researchChildRunId(run.runId, runKey);
  run.childStarted({ runId: childRunId, callKey, question, status: 'running', turns: 0, costUsd: 0 });
  const childLimits = { maxTurns: input.research?.maxTurns ?? RESEARCH_DEFAULTS.maxTurns, maxBudgetUsd };
  const model = input.research?.model ?? input.model;
  const result = await wf.executeChild<typeof agentWorkflow>(AGENT_WORKFLOW_TYPE, {
    // Derived from this run and the call: a retried start finds the same child instead of making a second.
    workflowId: childRunId,
    // Its line in this run's timeline and its own run's summary in Temporal's UI.
    staticSummary: researchSummary(question),
    staticDetails: runStaticDetails({ model, limits: { ...DEFAULT_LIMITS, ...childLimits } }),
    args: [
      {
        goal: question,
        model,
        system: RESEARCH_SYSTEM_PROMPT,
        tools: researchToolNames(offered),
        limits: childLimits,
        ...(input.workspace ? { workspace: input.workspace } : {}),
        ...(input.stream !== undefined ? { stream: input.stream } : {}),
        // A replayed run's children replay too, with the same tool mode.
        ...(input.replay ? { replay: input.replay } : {}),
      },
    ],
  }).catch((error: unknown) => {
    run.childFinished(childRunId, wf.isCancellation(error) ? 'interrupted' : 'failed');
    throw error;
  });
  run.childFinished(childRunId, result.status, { turns: result.totalTurns, costUsd: result.totalCostUsd });
  const ms = Date.now() - startedMs;
  if (result.status === 'completed') return { ok: true, content: result.output ?? '', ms };
  const why = result.error ?? result.reason ?? result.status;
  return { ms, ok: false, content: toolErrorText(`the research run stopped with status ${result.status} (${why}) before answering; ${result.turns} turns, $${result.totalCostUsd.toFixed(6)}`) };
}

/** A research run gets the read-only tools that run as activities (no research of its own), the run's read-only worker and MCP tools included. */
function researchToolNames(offered: ToolStep['offered']): string[] {
  const builtin = [...contractsByName.values()].filter((c) => c.readOnly && c.execution === 'activity').map((c) => c.name);
  const workers = [...offered.values()].filter((c) => c.readOnly && !contractsByName.has(c.name)).map((c) => c.name);
  return [...builtin, ...workers];
}
