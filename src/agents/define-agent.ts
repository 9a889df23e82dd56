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
  allow?: AgentAllowance;
}

/** An agent and the tools of its own that its worker runs (`createAgentWorker({ agents })` adds them). */
export interface Agent extends AgentDefinition {
  /** The tool objects given in `tools` (the definition keeps their names). */
  readonly ownTools: readonly Tool[];
}

/** What `defineAgent` takes: the definition, its tools given by name or as the tools themselves. */
export type AgentOptions = Omit<AgentDefinition, 'tools'> & {
  /** Tools by name, or the tools themselves (`defineTool`): the worker runs those. */
  tools?: readonly (string | Tool)[];
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
  const { tools, ...rest } = options;
  const ownTools = (tools ?? []).filter((t): t is Tool => typeof t !== 'string');
  return { ...rest, ...(tools ? { tools: tools.map((t) => (typeof t === 'string' ? t : t.name)) } : {}), ownTools };
}

/** The JSON part of an agent (what a run learns). */
export function agentDefinition(agent: AgentDefinition): AgentDefinition {
  const { name, instructions, model, fallbackModels, tools, limits, policy, outputSchema, modelCall, allow } = agent;
  return JSON.parse(JSON.stringify({ name, instructions, model, fallbackModels, tools, limits, policy, outputSchema, modelCall, allow })) as AgentDefinition;
}
