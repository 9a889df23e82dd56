/**
 * Agents as definitions: a name, instructions, a model, the tools it may use, its limits and policy, and
 * what a run naming it may set itself. A worker is given its agents (`createAgentWorker({ agents })`); a
 * run names one (`startRun({ agent: 'support', goal })`) and learns its definition from the worker through
 * history (`workflows/run-agent.ts`), so a replay sees the same agent and no client needs its code.
 * The definition is plain JSON; sandbox-safe (the workflow bundle imports this file).
 */
import type { Tool } from '../tools/define-tool.ts';
import type { ModelCall, RunLimits, RunPolicy } from '../wire/run-input.ts';

/** The limits a run may set itself, each up to a bound (a run may always ask for less). */
export type LimitAllowance = Partial<Record<'maxTurns' | 'maxBudgetUsd' | 'maxWallMs' | 'maxToolCalls', number>>;

/** What a run naming the agent may set itself; anything else in its input is refused with a clear error. */
export interface AgentAllowance {
  /** Limits the run may set, and up to what (default: none). */
  limits?: LimitAllowance;
  /** The run may pick another model (default: no). */
  model?: boolean;
}

/** An agent as a worker offers it: JSON-safe, it crosses into the run's history. */
export interface AgentDefinition {
  /** 1-64 letters, digits, `_` or `-`. */
  name: string;
  /** The system prompt. */
  instructions: string;
  /** One line on what it is for: what another agent reads when it may call it or hand over to it. */
  description?: string;
  /** The model a run uses unless it names one (and `allow.model` lets it). */
  model?: string;
  /** Models tried in order when `model` is unavailable past its retries (a run may give its own when `allow.model`). */
  fallbackModels?: string[];
  /** The tools it may use, by name (built-in, the worker's own, MCP); default: every tool the worker offers. */
  tools?: string[];
  limits?: Partial<RunLimits>;
  policy?: RunPolicy;
  /** JSON Schema the final answer (parsed as JSON) must meet. */
  outputSchema?: Record<string, unknown>;
  modelCall?: ModelCall;
  /** What the harness asks the model when it summarises older turns to fit the context window (docs/context.md). */
  summaryPrompt?: string;
  allow?: AgentAllowance;
  /**
   * Agents it may call as tools (`ask_<name>`, with a `task`): each call is a child run of that agent, with
   * its own tools, limits and approvals; its spend counts against this run's budget.
   */
  subAgents?: string[];
  /** Agents it may hand the conversation to (`transfer_to_<name>`): the same run goes on under their settings. */
  handoffs?: string[];
}

/** An agent and the tools of its own that its worker runs (`createAgentWorker({ agents })` adds them). */
export interface Agent extends AgentDefinition {
  /** The tool objects given in `tools` (the definition keeps their names). */
  readonly ownTools: readonly Tool[];
}

/** What `defineAgent` takes: the definition, its tools given by name or as the tools themselves. */
export type AgentOptions = Omit<AgentDefinition, 'tools' | 'subAgents' | 'handoffs'> & {
  /** Tools by name, or the tools themselves (`defineTool`): the worker runs those. */
  tools?: readonly (string | Tool)[];
  /** Agents it may call as tools, by name or as agents (give the worker those agents too). */
  subAgents?: readonly (string | AgentDefinition)[];
  /** Agents it may hand the conversation to, by name or as agents (give the worker those agents too). */
  handoffs?: readonly (string | AgentDefinition)[];
};

const AGENT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines an agent to give a worker.
 *
 * @example
 * const support = defineAgent({
 *   name: 'support',
 *   instructions: 'You help customers with their orders. Refund only what was paid.',
 *   model: 'gpt-4.1-mini',
 *   tools: [lookupOrder, refundOrder],
 *   limits: { maxTurns: 10, maxBudgetUsd: 0.5 },
 *   allow: { limits: { maxTurns: 20 } },
 * });
 */
export function defineAgent(options: AgentOptions): Agent {
  if (!AGENT_NAME.test(options.name)) throw new Error(`Agent name "${options.name}" is invalid: use 1-64 letters, digits, "_" or "-".`);
  if (!options.instructions.trim()) throw new Error(`Agent "${options.name}" has no instructions: say what it is for and how it should work.`);
  const { tools, subAgents, handoffs, ...rest } = options;
  const ownTools = (tools ?? []).filter((t): t is Tool => typeof t !== 'string');
  const names = (agents: readonly (string | AgentDefinition)[]) => agents.map((a) => (typeof a === 'string' ? a : a.name));
  return {
    ...rest,
    ...(tools ? { tools: tools.map((t) => (typeof t === 'string' ? t : t.name)) } : {}),
    ...(subAgents?.length ? { subAgents: names(subAgents) } : {}),
    ...(handoffs?.length ? { handoffs: names(handoffs) } : {}),
    ownTools,
  };
}

/** The JSON part of an agent (what a run learns). */
export function agentDefinition(agent: AgentDefinition): AgentDefinition {
  const { name, instructions, description, model, fallbackModels, tools, limits, policy, outputSchema, modelCall, summaryPrompt, allow, subAgents, handoffs } = agent;
  return JSON.parse(JSON.stringify({ name, instructions, description, model, fallbackModels, tools, limits, policy, outputSchema, modelCall, summaryPrompt, allow, subAgents, handoffs })) as AgentDefinition;
}
