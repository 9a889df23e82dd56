/** The agent's activities: everything with I/O. The workflow imports this module as a type only. */
import type { Client } from '@temporalio/client';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { ToolRegistry } from '../src/tools/registry.ts';
import { createCallModel } from './call-model.ts';
import type { ModelEndpoints } from './model-endpoints.ts';
import { createRunTool } from './run-tool.ts';
import type { TranscriptStore } from './transcript-store.ts';

export interface ActivityDeps {
  endpoints: ModelEndpoints;
  contracts: ReadonlyMap<string, ToolContract>;
  tools: ToolRegistry;
  defaultWorkspace: string;
  /** Workspaces runs may use: one of these or a directory inside one. */
  workspaceRoots: readonly string[];
  /** Keeps a tool's whole output when the model sees only its start; returns the reference. */
  keepOutput: (text: string) => Promise<string>;
  /** JSONL log of every tool execution attempt. */
  toolRunLog: string;
  /** A client on the worker's connection: tools report progress through it, the model call reads transcripts. */
  client: Client;
  transcripts: TranscriptStore;
}

export function createActivities(deps: ActivityDeps) {
  return {
    callModel: createCallModel({ endpoints: deps.endpoints, contracts: deps.contracts, store: deps.transcripts, client: deps.client }),
    runTool: createRunTool({
      tools: deps.tools,
      defaultWorkspace: deps.defaultWorkspace,
      workspaceRoots: deps.workspaceRoots,
      keepOutput: deps.keepOutput,
      client: deps.client,
      runLog: deps.toolRunLog,
    }),
  };
}

export type AgentActivities = ReturnType<typeof createActivities>;
