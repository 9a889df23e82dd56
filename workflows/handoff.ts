/**
 * Handoffs: an agent hands the conversation to another (`transfer_to_<agent>`). The call asks the worker
 * for the agents it offers (a local activity: the definition is in history, so a replay hands over the
 * same way) and answers the model; once the reply's calls are done, the other agent takes over the same run:
 * its instructions (a system message in the transcript), tools, policy, output contract and model (if it
 * names one). The run's goal, limits, budget and workspace stay. The trace (`handoff`, and each turn's
 * `agent`), the state (`agent`, `agentTurns`) and the receipt (each call's `agent`) say who was in charge.
 */
import type { AgentDefinition } from '../src/agents/define-agent.ts';
import { linkedAgentContracts } from '../src/agents/agent-tools.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { ToolDefinition } from '../src/tools/tool-definition.ts';
import type { ResolvedRunInput } from '../src/wire/run-input.ts';
import { toolErrorText } from '../src/wire/failures.ts';
import { mcpTools } from './activity-options.ts';
import { handedTo } from './run-agent.ts';
import type { LoopState } from './loop-state.ts';
import { addWorkerTools } from './worker-tools.ts';

/** A handoff the model asked for in this reply: applied once the reply's calls are done. */
export interface Handoff {
  to: AgentDefinition;
  agents: readonly AgentDefinition[];
  definitions: readonly ToolDefinition[];
  callKey: string;
}

/** What a handoff changes: the run's settings and the tools it offers (the same map, refilled). */
export interface HandoffTarget {
  input: ResolvedRunInput;
  offered: Map<string, ToolContract>;
  handoff: Handoff | null;
}

/** The `transfer_to_<agent>` call: the text the model gets back; the handoff itself waits for the reply's other calls. */
export async function askHandoff(loop: HandoffTarget, agent: string, callKey: string): Promise<{ ok: boolean; content: string }> {
  if (loop.handoff) return { ok: false, content: toolErrorText(`this reply already hands over to "${loop.handoff.to.name}"; one handoff per reply`) };
  const { agents = [], definitions } = await mcpTools();
  const to = agents.find((a) => a.name === agent);
  if (!to) return { ok: false, content: toolErrorText(`no worker on this task queue offers the agent "${agent}" now; agents there are: ${agents.map((a) => a.name).join(', ') || '(none)'}`) };
  loop.handoff = { to, agents, definitions, callKey };
  return { ok: true, content: `Agent "${agent}" takes over from the next turn.` };
}

/** The other agent takes over: its settings become the run's, its tools the ones offered. */
export function takeOver(loop: HandoffTarget, run: LoopState, builtins: (names: readonly string[] | undefined) => Map<string, ToolContract>): void {
  const handoff = loop.handoff!;
  loop.handoff = null;
  loop.input = handedTo(handoff.to, handoff.agents, loop.input);
  const names = loop.input.tools;
  loop.offered.clear();
  for (const [name, contract] of builtins(names)) loop.offered.set(name, contract);
  addWorkerTools(loop.offered, handoff.definitions, names?.filter((name) => !loop.offered.has(name)));
  for (const contract of linkedAgentContracts(loop.input)) loop.offered.set(contract.name, contract);
  run.handedOff(handoff.to.name, handoff.to.instructions, handoff.callKey);
}
