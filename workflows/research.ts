/**
 * Child runs: the `research` tool (the same agent loop with read-only tools, its own transcript, prompt and
 * limits) and `ask_<agent>` (a run of another agent, with its own tools, limits, policy and approvals).
 * A child's spend rolls up into this run's totals and counts against this run's budget — also when it is
 * cancelled or fails without a result (its memo says what it spent); a child that fails or hits a limit is
 * an error text for the model, not a crash of this run. A child waiting for a person is listed with its
 * parent (`GET /runs?pending=true`); approving it there resumes this run's call when the child answers.
 */
import * as wf from '@temporalio/workflow';
import { contractsByName } from '../src/tools/contracts.ts';
import type { agentWorkflow } from './agent.ts';
import { AGENT_WORKFLOW_TYPE } from '../src/wire/messages.ts';
import { RESEARCH_SYSTEM_PROMPT } from './prompts.ts';
import { toolErrorText } from '../src/wire/failures.ts';
import type { ToolStep } from './tool-step.ts';
import type { ToolOutcome } from '../src/wire/types.ts';
import { agentChildRunId, researchChildRunId } from '../src/wire/run-ids.ts';
import type { ResolvedRunInput, RunInput } from '../src/wire/run-input.ts';
import { childTotals } from './activity-options.ts';
import { DEFAULT_LIMITS } from '../src/wire/default-limits.ts';
import { maskSecrets, oneLine, researchSummary, runStaticDetails } from '../src/wire/summaries.ts';

/** Research sub-agent limits when the run sets none. */
const RESEARCH_DEFAULTS = { maxTurns: 6, maxBudgetUsd: 0.05 };

type ChildStep = Pick<ToolStep, 'run' | 'input' | 'limits' | 'offered'>;

export function runResearch(step: ChildStep, runKey: string, callKey: string, question: string): Promise<ToolOutcome> {
  const { input, limits, run, offered } = step;
  const budgetLeft = limits.maxBudgetUsd - run.state.totalCostUsd;
  const maxBudgetUsd = Math.min(input.research?.maxBudgetUsd ?? RESEARCH_DEFAULTS.maxBudgetUsd, budgetLeft);
  const childLimits = { maxTurns: input.research?.maxTurns ?? RESEARCH_DEFAULTS.maxTurns, maxBudgetUsd };
  const model = input.research?.model ?? input.model;
  return runChild(step, researchChildRunId(run.runId, runKey), callKey, question, maxBudgetUsd, {
    goal: question,
    model,
    system: RESEARCH_SYSTEM_PROMPT,
    tools: researchToolNames(offered),
    limits: childLimits,
  }, { staticSummary: researchSummary(question), staticDetails: runStaticDetails({ model, limits: { ...DEFAULT_LIMITS, ...childLimits } }) });
}

/** `ask_<agent>`: a run of that agent on the task, under its own settings, within what this run has left to spend. */
export function runSubAgent(step: ChildStep, runKey: string, callKey: string, agent: string, task: string): Promise<ToolOutcome> {
  const { input, limits, run } = step;
  const budgetLeft = limits.maxBudgetUsd - run.state.totalCostUsd;
  const ref = input.subAgents?.find((a) => a.name === agent);
  return runChild(
    step,
    agentChildRunId(run.runId, runKey),
    callKey,
    task,
    budgetLeft,
    {
      agent,
      goal: task,
      // An agent that names no model works on this run's.
      ...(ref?.model ? {} : { model: input.model }),
      budgetCapUsd: budgetLeft,
    },
    { staticSummary: oneLine(`agent ${agent}: ${maskSecrets(task)}`), staticDetails: runStaticDetails({ agent, model: ref?.model ?? input.model, limits: { ...DEFAULT_LIMITS, maxBudgetUsd: budgetLeft } }) },
    agent,
  );
}

async function runChild(
  { run, input }: ChildStep,
  childRunId: string,
  callKey: string,
  question: string,
  maxBudgetUsd: number,
  childInput: Partial<RunInput> & Pick<ResolvedRunInput, 'goal' | 'budgetCapUsd'> & { agent?: string },
  /** Its line in this run's timeline and its own run's summary in Temporal's UI. */
  metadata: { staticSummary: string; staticDetails: string },
  agent?: string,
): Promise<ToolOutcome> {
  const startedMs = Date.now();
  const what = agent ? `agent "${agent}"` : 'research';
  if (maxBudgetUsd <= 0) return { ok: false, content: toolErrorText(`no budget is left for ${what} in this run`), ms: 0 };
  run.childStarted({ runId: childRunId, callKey, question, ...(agent ? { agent } : {}), status: 'running', turns: 0, costUsd: 0 });
  const result = await wf
    .executeChild<typeof agentWorkflow>(AGENT_WORKFLOW_TYPE, {
      // Derived from this run and the call: a retried start finds the same child instead of making a second.
      workflowId: childRunId,
      ...metadata,
      args: [
        {
          ...childInput,
          ...(input.workspace ? { workspace: input.workspace } : {}),
          ...(input.stream !== undefined ? { stream: input.stream } : {}),
          // A replayed run's children replay too, with the same tool mode.
          ...(input.replay ? { replay: input.replay } : {}),
        },
      ],
    })
    .catch(async (error: unknown) => {
      // No result: what the child spent is in its memo. Runs recorded before this lost it.
      const cancelled = wf.isCancellation(error);
      const totals = run.changes.has('child-spend-kept') ? await wf.CancellationScope.nonCancellable(() => childTotals(childRunId)) : null;
      run.childFinished(childRunId, cancelled ? 'interrupted' : 'failed', totals ?? undefined);
      throw error;
    });
  run.childFinished(childRunId, result.status, { turns: result.totalTurns, costUsd: result.totalCostUsd });
  const ms = Date.now() - startedMs;
  if (result.status === 'completed') return { ok: true, content: result.output ?? '', ms };
  const why = result.error ?? result.reason ?? result.status;
  return { ms, ok: false, content: toolErrorText(`the ${what} run stopped with status ${result.status} (${why}) before answering; ${result.turns} turns, $${result.totalCostUsd.toFixed(6)}`) };
}

/** A research run gets the read-only tools that run as activities (no research of its own), the run's read-only worker and MCP tools included. */
function researchToolNames(offered: ToolStep['offered']): string[] {
  const builtin = [...contractsByName.values()].filter((c) => c.readOnly && c.execution === 'activity').map((c) => c.name);
  const workers = [...offered.values()].filter((c) => c.readOnly && !contractsByName.has(c.name)).map((c) => c.name);
  return [...builtin, ...workers];
}
