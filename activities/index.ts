/** The agent's activities: everything with I/O. The workflow imports this module as a type only. */
import type { Client } from '@temporalio/client';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { ToolRegistry } from '../src/tools/registry.ts';
import { createCallModel } from './call-model.ts';
import type { ModelEndpoints } from './model-endpoints.ts';
import { createRunTool } from './run-tool.ts';

export interface ActivityDeps {
  endpoints: ModelEndpoints;
  contracts: ReadonlyMap<string, ToolContract>;
  tools: ToolRegistry;
  defaultWorkspace: string;
  /** A client on the worker's connection: tools report progress to their run through it. */
  client: Client;
}

export function createActivities(deps: ActivityDeps) {
  return {
    callModel: createCallModel(deps.endpoints, deps.contracts),
    runTool: createRunTool({ tools: deps.tools, defaultWorkspace: deps.defaultWorkspace, client: deps.client }),
  };
}

export type AgentActivities = ReturnType<typeof createActivities>;
