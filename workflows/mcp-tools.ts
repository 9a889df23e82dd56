/**
 * How a run learns its MCP tools. They are discovered by the worker at its start, so the workflow cannot
 * import them: the run learns the worker's MCP tool definitions from history and builds contracts from
 * them, to validate arguments and apply the same policy, approval, dedupe and idempotency rules as for
 * the built-in tools.
 *
 * A run that names no tools (it is offered all of them) learns them with the first model call of each
 * execution: the `callModel` activity offers the model its worker's MCP tools and returns their
 * definitions with the reply (recorded in history), before any of the reply's calls is looked at. That
 * costs no extra step, and the model is offered exactly the tools whose definitions the run then holds.
 * A run that names MCP tools asks for them first (the `mcpTools` local activity), so that a name no
 * worker's server offers ends the run at once. Runs started before either existed replay as recorded.
 */
import * as wf from '@temporalio/workflow';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { contractFromMcpDefinition, isMcpToolName, type McpToolDefinition } from '../src/tools/mcp-contracts.ts';
import { mcpTools } from './activity-options.ts';
import type { Changes } from './changes.ts';
import { FailureType } from '../src/wire/failures.ts';

/**
 * Adds the worker's MCP tools to what the run offers: all of them when the run names no tools, else the
 * ones it names. A run that names no MCP tool asks nothing (its history is as before MCP); runs started
 * before MCP tools existed replay without the activity. Returns true when the first model call is to
 * bring the worker's MCP tools (the `mcp-tools-with-model-call` change).
 */
export async function offerMcpTools(offered: Map<string, ToolContract>, names: readonly string[] | undefined, changes: Changes): Promise<boolean> {
  const wanted = names?.filter(isMcpToolName);
  if (wanted?.length === 0) return false;
  if (!wanted && changes.has('mcp-tools-with-model-call')) return true;
  if (!changes.has('mcp-tools')) return false;
  const { definitions, down } = await mcpTools();
  const unreadable = addMcpTools(offered, definitions, wanted);
  const missing = wanted?.filter((name) => !offered.has(name)) ?? [];
  if (missing.length) {
    const known = definitions.map((d) => d.name).join(', ') || '(none)';
    const why = down.length ? ` MCP servers down on the worker: ${down.map((d) => `${d.server} (${d.error})`).join('; ')}.` : '';
    throw wf.ApplicationFailure.nonRetryable(
      `Unknown tool${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')} in the run input: no MCP server on the worker offers ${missing.length > 1 ? 'them' : 'it'}` +
        `${unreadable.length ? ' readably' : ''}. MCP tools the worker offers: ${known}.${why}`,
      FailureType.invalidRunInput,
    );
  }
  return false;
}

/** Adds the definitions' contracts (only the `wanted` ones when given); returns the names of those it could not read. */
export function addMcpTools(offered: Map<string, ToolContract>, definitions: readonly McpToolDefinition[], wanted?: readonly string[]): string[] {
  const unreadable: string[] = [];
  for (const definition of definitions) {
    if (wanted && !wanted.includes(definition.name)) continue;
    const contract = contractOf(definition);
    if (contract) offered.set(definition.name, contract);
    else unreadable.push(definition.name);
  }
  return unreadable;
}

function contractOf(definition: McpToolDefinition): ToolContract | null {
  try {
    return contractFromMcpDefinition(definition);
  } catch {
    return null;
  }
}
