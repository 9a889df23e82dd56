/**
 * The agent a run names, applied to its input. The run asks its worker for the agents it offers (the
 * `mcpTools` local activity: its result is in history, so a replay applies the same definition), then
 * takes the agent's instructions, tools, limits, policy and output contract, and of the run's own input
 * only what the agent allows: anything else is refused at once, saying what the agent allows. A run that
 * names no agent is configured by its own input, as before, and asks nothing here.
 *
 * The next execution of a run that continues-as-new gets the input as applied here (its agent resolved
 * once, for the whole run).
 */
import * as wf from '@temporalio/workflow';
import type { AgentDefinition } from '../src/agents/define-agent.ts';
import { toAgentRef } from '../src/agents/agent-tools.ts';
import type { ResolvedRunInput, RunInput, RunLimits } from '../src/wire/run-input.ts';
import { mcpTools } from './activity-options.ts';
import { FailureType } from '../src/wire/failures.ts';

/** Fields of a run's input that the agent decides: a run naming an agent may not set them. */
const AGENT_FIELDS = ['system', 'tools', 'policy', 'outputSchema', 'modelCall', 'summaryPrompt'] as const;

/** The input of a run that names no agent: as it is (it must name a model). No await: nothing changes for such runs. */
export function withoutAgent(input: RunInput): ResolvedRunInput {
  const { agent: _none, ...rest } = input;
  if (rest.model === undefined) refuse('The run input names neither a model nor an agent: give `model` (or `agent`, whose definition names one).');
  return { ...rest, model: rest.model };
}

/**
 * The input of a run that names an agent, with the agent applied. Its first step (before the run answers
 * queries: a local activity, milliseconds) asks the worker for the agent; signals sent meanwhile wait.
 */
export async function withAgent(input: RunInput & { agent: string }): Promise<ResolvedRunInput> {
  const { agent: name, ...rest } = input;
  const { agents = [] } = await mcpTools();
  const agent = agents.find((a) => a.name === name);
  if (!agent) refuse(`Unknown agent "${name}": no worker on this task queue offers it. Agents there are: ${agents.map((a) => a.name).join(', ') || '(none)'}.`);
  return { ...applyAgent(agent, rest), ...linksOf(agent, agents) };
}

/** The agents `agent` may call and hand over to, as the run keeps them; a name no worker offers is refused. */
export function linksOf(agent: AgentDefinition, agents: readonly AgentDefinition[]): Pick<ResolvedRunInput, 'agentName' | 'subAgents' | 'handoffs'> {
  const refs = (names: readonly string[] | undefined, what: string) =>
    names?.map((linked) => {
      const found = agents.find((a) => a.name === linked);
      if (!found) refuse(`Agent "${agent.name}" names ${what} "${linked}", which no worker on this task queue offers. Agents there are: ${agents.map((a) => a.name).join(', ')}.`);
      return toAgentRef(found);
    });
  const subAgents = refs(agent.subAgents, 'the sub-agent');
  const handoffs = refs(agent.handoffs, 'the handoff');
  return { agentName: agent.name, ...(subAgents?.length ? { subAgents } : {}), ...(handoffs?.length ? { handoffs } : {}) };
}

/**
 * The run's settings once `agent` takes over (a handoff): its instructions, tools, policy, output contract
 * and model call, its model if it names one; the run's goal, limits and workspace stay.
 */
export function handedTo(agent: AgentDefinition, agents: readonly AgentDefinition[], input: ResolvedRunInput): ResolvedRunInput {
  const { system: _system, tools: _tools, policy: _policy, outputSchema: _outputSchema, modelCall: _modelCall, subAgents: _subAgents, handoffs: _handoffs, ...kept } = input;
  return {
    ...kept,
    model: agent.model ?? input.model,
    system: agent.instructions,
    ...(agent.tools ? { tools: agent.tools } : {}),
    // The new agent's policy, never the one of the agent that handed over.
    ...(agent.policy ? { policy: agent.policy } : {}),
    ...(agent.outputSchema ? { outputSchema: agent.outputSchema } : {}),
    ...(agent.modelCall ? { modelCall: agent.modelCall } : {}),
    ...linksOf(agent, agents),
  };
}

/** The run's input under `agent`'s settings, or a refusal naming the first thing the agent does not allow. */
export function applyAgent(agent: AgentDefinition, input: Omit<RunInput, 'agent'> & Pick<ResolvedRunInput, 'budgetCapUsd'>): ResolvedRunInput {
  const set = AGENT_FIELDS.filter((field) => input[field] !== undefined);
  if (set.length) refuse(`The run input sets ${set.map((f) => `\`${f}\``).join(', ')}, which agent "${agent.name}" decides: leave ${set.length > 1 ? 'them' : 'it'} out.`);
  if (input.model !== undefined && input.model !== agent.model && !agent.allow?.model) {
    refuse(`Agent "${agent.name}" runs on ${agent.model ?? 'a model it names'} and does not let a run pick another (\`model\` "${input.model}").`);
  }
  if (input.fallbackModels !== undefined && !agent.allow?.model) refuse(`Agent "${agent.name}" does not let a run pick its models (\`fallbackModels\`).`);
  const model = input.model ?? agent.model;
  if (model === undefined) refuse(`Agent "${agent.name}" names no model: give \`model\` in the run input.`);
  const allowed = agent.allow?.limits ?? {};
  for (const [key, value] of Object.entries(input.limits ?? {}) as [keyof RunLimits, number][]) {
    const bound = (allowed as Partial<Record<keyof RunLimits, number>>)[key];
    if (bound === undefined) refuse(`Agent "${agent.name}" does not let a run set limits.${key}; it allows ${Object.keys(allowed).map((k) => `limits.${k}`).join(', ') || 'no limits'}.`);
    if (value > bound) refuse(`Agent "${agent.name}" allows limits.${key} up to ${bound}; the run asked for ${value}.`);
  }
  return {
    ...input,
    model,
    ...(input.fallbackModels === undefined && agent.fallbackModels ? { fallbackModels: agent.fallbackModels } : {}),
    system: agent.instructions,
    ...(agent.tools ? { tools: agent.tools } : {}),
    ...(agent.limits || input.limits ? { limits: { ...agent.limits, ...input.limits } } : {}),
    ...(agent.policy ? { policy: agent.policy } : {}),
    ...(agent.outputSchema ? { outputSchema: agent.outputSchema } : {}),
    ...(agent.modelCall ? { modelCall: agent.modelCall } : {}),
    ...(agent.summaryPrompt ? { summaryPrompt: agent.summaryPrompt } : {}),
  };
}

function refuse(message: string): never {
  throw wf.ApplicationFailure.nonRetryable(message, FailureType.invalidRunInput);
}
