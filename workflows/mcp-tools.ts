/**
 * How a run learns its MCP tools. They are discovered by the worker at its start, so the workflow cannot
 * import them: at the start of each execution the run asks the worker for its MCP tool definitions (the
 * `mcpTools` local activity: its result is recorded in history, so a replay sees exactly the same
 * definitions, whichever worker replays it) and builds contracts from them, to validate arguments and
 * apply the same policy, approval, dedupe and idempotency rules as for the built-in tools.
 */
import * as wf from '@temporalio/workflow';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { contractFromMcpDefinition, isMcpToolName, type McpToolDefinition } from '../src/tools/mcp-contracts.ts';
import { mcpTools } from './activity-options.ts';

/**
 * Adds the worker's MCP tools to what the run offers: all of them when the run names no tools, else the
 * ones it names. A run that names no MCP tool asks nothing (its history is as before MCP); runs started
 * before MCP tools existed replay without the activity.
 */
export async function offerMcpTools(offered: Map<string, ToolContract>, names: readonly string[] | undefined): Promise<void> {
  const wanted = names?.filter(isMcpToolName);
  if (wanted?.length === 0) return;
  if (!wf.patched('mcp-tools')) return;
  const { definitions, down } = await mcpTools();
  const unreadable: string[] = [];
  for (const definition of definitions) {
    if (wanted && !wanted.includes(definition.name)) continue;
    const contract = contractOf(definition);
    if (contract) offered.set(definition.name, contract);
    else unreadable.push(definition.name);
  }
  const missing = wanted?.filter((name) => !offered.has(name)) ?? [];
  if (missing.length) {
    const known = definitions.map((d) => d.name).join(', ') || '(none)';
    const why = down.length ? ` MCP servers down on the worker: ${down.map((d) => `${d.server} (${d.error})`).join('; ')}.` : '';
    throw wf.ApplicationFailure.nonRetryable(
      `Unknown tool${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')} in the run input: no MCP server on the worker offers ${missing.length > 1 ? 'them' : 'it'}` +
        `${unreadable.length ? ' readably' : ''}. MCP tools the worker offers: ${known}.${why}`,
      'InvalidRunInput',
    );
  }
}

function contractOf(definition: McpToolDefinition): ToolContract | null {
  try {
    return contractFromMcpDefinition(definition);
  } catch {
    return null;
  }
}
