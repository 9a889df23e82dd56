/** The agent's activities: everything with I/O. The workflow imports this module as a type only. */
import type { Client } from '@temporalio/client';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { ToolRegistry } from '../src/tools/registry.ts';
import { createCallModel } from './call-model.ts';
import type { ModelEndpoints } from './model-endpoints.ts';
import { createRunTool } from './run-tool.ts';
import { withRecordedTools } from './recorded-tools.ts';
import { createWorkerTools } from './mcp-tools.ts';
import type { ToolDefinition } from '../src/tools/tool-definition.ts';
import type { AgentDefinition } from '../src/agents/define-agent.ts';
import type { McpPool } from '../src/mcp/pool.ts';
import type { AgentStore } from '../src/store/store.ts';
import { TranscriptChain } from './transcript.ts';
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
  /** The worker's task queue (a limited provider's model calls go to a queue named after it). */
  taskQueue?: string;
}

export function createActivities(deps: ActivityDeps) {
  return {
    callModel: createCallModel({
      endpoints: deps.endpoints,
      contracts: deps.contracts,
      transcripts: new TranscriptChain(deps.store),
      client: deps.client,
      store: deps.store,
      mcpTool: (name) => deps.mcp?.definition(name),
      workerCatalog: () => [...(deps.ownTools ?? []), ...(deps.mcp?.catalog().definitions ?? [])],
    }),
    // Which models' calls go to a rate-limited provider queue (`src/providers/model-queues.ts`): a local activity, in history.
    modelQueues: (models: string[]): Promise<Record<string, string>> => Promise.resolve(modelQueues(models, deps.endpoints, deps.taskQueue ?? TASK_QUEUE)),
    // Named for what it first served: the worker's tools that runs learn from history, its own and MCP servers'.
    mcpTools: createWorkerTools(deps.ownTools ?? [], deps.mcp ?? null, deps.agents),
    // A replay's side-effect tools return their recorded results (activities/recorded-tools.ts).
    runTool: withRecordedTools(
      createRunTool({
        tools: deps.tools,
        defaultWorkspace: deps.defaultWorkspace,
        workspaceRoots: deps.workspaceRoots,
        keepOutput: (text) => deps.store.putOutput(text),
        client: deps.client,
        store: deps.store,
        runLog: deps.toolRunLog,
      }),
      { endpoints: deps.endpoints, contractOf: (name) => deps.contracts.get(name) ?? deps.tools.get(name) },
    ),
  };
}

export type AgentActivities = ReturnType<typeof createActivities>;
