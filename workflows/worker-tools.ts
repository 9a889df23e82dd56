/**
 * How a run learns the tools it cannot import: the worker's own (`defineTool`, given to the worker) and its
 * MCP servers' tools. The run learns the worker's tool definitions from history and builds contracts from
 * them (`src/tools/tool-definition.ts`), to validate arguments and apply the same policy, approval, dedupe
 * and idempotency rules as for the built-in tools.
 *
 * A run that names no tools (it is offered all of them) learns them with the first model call of each
 * execution: the `callModel` activity offers the model its worker's tools and returns their definitions
 * with the reply (recorded in history), before any of the reply's calls is looked at. That costs no extra
 * step, and the model is offered exactly the tools whose definitions the run then holds. A run that names
 * such tools asks for them first (the `mcpTools` local activity), so that a name no worker offers ends the
 * run at once. Runs started before either existed replay as recorded.
 */
import * as wf from '@temporalio/workflow';
import { contractsByName } from '../src/tools/contracts.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { readableContract, type ToolDefinition } from '../src/tools/tool-definition.ts';
import { mcpTools } from './activity-options.ts';
import { FailureType } from '../src/wire/failures.ts';
import type { Changes } from './changes.ts';

/**
 * Adds the worker's tools to what the run offers (`offered`: the built-in tools it offers): all of them
 * when the run names no tools, else the ones it names. A run that names none of them asks nothing (its
 * history is as before worker tools); runs started before they existed replay without the activity.
 * Returns true when the first model call is to bring the worker's tools (`withModelCall`).
 */
export async function offerWorkerTools(offered: Map<string, ToolContract>, names: readonly string[] | undefined, changes: Changes): Promise<boolean> {
  const wanted = names?.filter((name) => !offered.has(name));
  if (wanted?.length === 0) return false;
  if (!wanted && changes.has('mcp-tools-with-model-call')) return true;
  if (!changes.has('mcp-tools')) return false;
  const { definitions, down } = await mcpTools();
  const unreadable = addWorkerTools(offered, definitions, wanted);
  const missing = wanted?.filter((name) => !offered.has(name)) ?? [];
  if (missing.length) {
    const known = [...new Set([...contractsByName.keys(), ...definitions.map((d) => d.name)])].join(', ');
    const why = down.length ? ` MCP servers down on the worker: ${down.map((d) => `${d.server} (${d.error})`).join('; ')}.` : '';
    throw wf.ApplicationFailure.nonRetryable(
      `Unknown tool${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')} in the run input: no worker on this task queue offers ${missing.length > 1 ? 'them' : 'it'}` +
        `${unreadable.length ? ' readably' : ''}. Tools there are: ${known}.${why}`,
      FailureType.invalidRunInput,
    );
  }
  return false;
}

/** Adds the definitions' contracts (only the `wanted` ones when given); returns the names of those it could not read. */
export function addWorkerTools(offered: Map<string, ToolContract>, definitions: readonly ToolDefinition[], wanted?: readonly string[]): string[] {
  const unreadable: string[] = [];
  for (const definition of definitions) {
    if (wanted && !wanted.includes(definition.name)) continue;
    const contract = readableContract(definition);
    if (contract) offered.set(definition.name, contract);
    else unreadable.push(definition.name);
  }
  return unreadable;
}

