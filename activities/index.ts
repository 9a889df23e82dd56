/** The agent's activities: everything with I/O. The workflow imports this module as a type only. */
import { owningRun } from './owning-run.ts';
import type { Client } from '@temporalio/client';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { withTool, type ToolRegistry } from '../src/tools/registry.ts';
import { createCallModel } from './call-model.ts';
import type { ModelEndpoints } from './model-endpoints.ts';
import { createRunTool } from './run-tool.ts';
import { createCheckAnswerClaims, createClaimChecker } from './check-claims.ts';
import { createJudgeClaims } from './judge-claims.ts';
import { withRecordedTools } from './recorded-tools.ts';
import { createWorkerTools } from './mcp-tools.ts';
import type { ToolDefinition } from '../src/tools/tool-definition.ts';
import type { AgentDefinition } from '../src/agents/define-agent.ts';
import type { McpPool } from '../src/mcp/pool.ts';
import type { AgentStore } from '../src/store/store.ts';
import { TranscriptChain } from './transcript.ts';
import { createChildTotals } from './child-totals.ts';
import { createScheduleSpend } from './schedule-spend.ts';
import { agentToolContract, handoffContract, toAgentRef } from '../src/agents/agent-tools.ts';
import { createCompactContext } from './compact-context.ts';
import { createRecallOutput } from '../src/tools/recall-output.ts';
import { modelQueues } from '../src/providers/model-queues.ts';
import { TASK_QUEUE } from '../src/paths.ts';

export interface ActivityDeps {
  endpoints: ModelEndpoints;
  /** The contracts of the tools this worker runs itself: the built-in ones and its own. */
  contracts: ReadonlyMap<string, ToolContract>;
  /** The worker's own tools (not built in, not MCP), as runs learn them (`src/tools/tool-definition.ts`). */
  ownTools?: readonly ToolDefinition[];
  /** The agents the worker offers (`src/agents/define-agent.ts`). */
  agents?: readonly AgentDefinition[];
  tools: ToolRegistry;
  defaultWorkspace: string;
  /** Workspaces runs may use: one of these or a directory inside one. */
  workspaceRoots: readonly string[];
  /** JSONL log of every tool execution attempt. */
  toolRunLog: string;
  /** A client on the worker's connection: tools report progress through it, the model call reads transcripts. */
  client: Client;
  /** Transcript links and whole tool outputs: the store every worker host shares. */
  store: AgentStore;
  /** The worker's MCP servers (null: none configured). */
  mcp?: McpPool | null;
  /** The digest of what this worker offers (tools and agents, as published to the store): each run records the one it was served by. */
  offerDigest?: string;
  /** The worker's task queue (a limited provider's model calls go to a queue named after it). */
  taskQueue?: string;
}

export function createActivities(deps: ActivityDeps) {
  const transcripts = new TranscriptChain(deps.store);
  // `recall_output` reads what compaction elided: every worker offers it (a run asks for it once it elides).
  const recall = createRecallOutput(deps.store);
  // The model is offered `ask_<agent>` and `transfer_to_<agent>` from the same contracts the run builds.
  const linked = (deps.agents ?? []).flatMap((agent) => [agentToolContract(toAgentRef(agent)), handoffContract(toAgentRef(agent))]);
  const contracts = new Map([...deps.contracts, [recall.name, recall] as const, ...linked.map((c) => [c.name, c] as const)]);
  const tools = withTool(deps.tools, recall);
  const checkClaims = createClaimChecker(deps.tools);
  return {
    callModel: createCallModel({
      endpoints: deps.endpoints,
      contracts,
      transcripts,
      client: deps.client,
      store: deps.store,
      mcpTool: (name) => deps.mcp?.definition(name),
      workerCatalog: () => [...(deps.ownTools ?? []), ...(deps.mcp?.catalog().definitions ?? [])],
      checkClaims,
      ...(deps.offerDigest ? { offerDigest: deps.offerDigest } : {}),
    }),
    // Which models' calls go to a rate-limited provider queue (`src/providers/model-queues.ts`): a local activity, in history.
    modelQueues: (models: string[]): Promise<Record<string, string>> => Promise.resolve(modelQueues(models, deps.endpoints, deps.taskQueue ?? TASK_QUEUE)),
    // Named for what it first served: the worker's tools that runs learn from history, its own and MCP servers'.
    mcpTools: createWorkerTools(deps.ownTools ?? [], deps.mcp ?? null, deps.agents),
    childTotals: createChildTotals(deps.client),
    // What a schedule's runs spent today: a capped scheduled run's first step (`workflows/schedule-cap.ts`).
    scheduleSpend: createScheduleSpend(deps.client),
    // The final answer's claims against the receipt, when its model call did not check them (the workflow's `claim-check.ts`).
    checkAnswerClaims: createCheckAnswerClaims(checkClaims),
    // The optional claim judge's model call (`policy.claimJudge`).
    judgeClaims: createJudgeClaims(deps.endpoints, deps.tools, deps.store),
    // Compaction: elides old tool results and summarises older turns (activities/compact-context.ts).
    compactContext: createCompactContext({ endpoints: deps.endpoints, store: deps.store, transcripts }),
    // A replay's side-effect tools return their recorded results (activities/recorded-tools.ts).
    runTool: withRecordedTools(
      createRunTool({
        tools,
        defaultWorkspace: deps.defaultWorkspace,
        workspaceRoots: deps.workspaceRoots,
        keepOutput: (text) => deps.store.putOutput(text, owningRun()),
        client: deps.client,
        store: deps.store,
        runLog: deps.toolRunLog,
      }),
      { endpoints: deps.endpoints, contractOf: (name) => contracts.get(name) ?? tools.get(name) },
    ),
  };
}

export type AgentActivities = ReturnType<typeof createActivities>;
