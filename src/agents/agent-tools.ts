/**
 * The tools an agent gets from the other agents it names: `ask_<name>` for each of its `subAgents` (a child
 * run of that agent does the task and its answer is the result) and `transfer_to_<name>` for each of its
 * `handoffs` (the same run goes on under that agent). The workflow builds their contracts from the agents'
 * names and descriptions (no code crosses into it) and the model-call activity offers them to the model
 * from the same contracts. Sandbox-safe.
 */
import { z } from 'zod';
import { defineToolContract, type ToolContract } from '../tools/define-tool.ts';
import type { AgentDefinition } from './define-agent.ts';

/** What a run needs to know of an agent it may call or hand over to. */
export interface AgentRef {
  name: string;
  description?: string;
  /** The model its child runs use when the calling run's model is not to be used. */
  model?: string;
}

const ASK = 'ask_';
const TRANSFER = 'transfer_to_';

export const agentToolName = (agent: string): string => `${ASK}${agent}`;
export const handoffToolName = (agent: string): string => `${TRANSFER}${agent}`;

/** The agent a `ask_<name>` contract runs (undefined for any other tool). */
export const agentOfTool = (contract: Pick<ToolContract, 'name' | 'execution'>): string | undefined =>
  contract.execution === 'child-run' && contract.name.startsWith(ASK) ? contract.name.slice(ASK.length) : undefined;

/** The agent a `transfer_to_<name>` contract hands over to (undefined for any other tool). */
export const handoffTargetOf = (contract: Pick<ToolContract, 'name' | 'execution'>): string | undefined =>
  contract.execution === 'handoff' ? contract.name.slice(TRANSFER.length) : undefined;

/** Longest agent name that still makes a valid tool name with either prefix (tool names are at most 64 characters). */
export const MAX_LINKED_AGENT_NAME = 64 - TRANSFER.length;

export const toAgentRef = ({ name, description, model }: AgentDefinition): AgentRef => ({
  name,
  ...(description ? { description } : {}),
  ...(model ? { model } : {}),
});

/**
 * `ask_<name>`: a child run of the agent. Not read-only (the child may act: each of its own risky calls
 * waits for its own approval), low risk in itself, so the policy lets the call start.
 */
export function agentToolContract(agent: AgentRef): ToolContract {
  return defineToolContract({
    name: agentToolName(agent.name),
    description: `Give one task to the agent "${agent.name}"${agent.description ? ` (${agent.description})` : ''}. It works on it with its own tools and returns its answer.`,
    input: z.object({ task: z.string().min(1).max(4000).describe('What the agent is to do, with everything it needs to know.') }),
    output: z.string(),
    readOnly: false,
    risk: 'low',
    // The child's own limits bound it; its approvals may wait for days.
    timeoutMs: 7 * 24 * 3_600_000,
    execution: 'child-run',
  });
}

/** `transfer_to_<name>`: from the next turn the agent is in charge of this run (its instructions, tools, policy). */
export function handoffContract(agent: AgentRef): ToolContract {
  return defineToolContract({
    name: handoffToolName(agent.name),
    description: `Hand the conversation to the agent "${agent.name}"${agent.description ? ` (${agent.description})` : ''}: it takes over from the next turn, with its own instructions and tools.`,
    input: z.object({}),
    output: z.string(),
    readOnly: false,
    risk: 'low',
    timeoutMs: 10_000,
    execution: 'handoff',
  });
}

/** The contracts an agent's run offers besides its tools: one per sub-agent and per handoff. */
export function linkedAgentContracts(links: { subAgents?: readonly AgentRef[]; handoffs?: readonly AgentRef[] }): ToolContract[] {
  return [...(links.subAgents ?? []).map(agentToolContract), ...(links.handoffs ?? []).map(handoffContract)];
}
