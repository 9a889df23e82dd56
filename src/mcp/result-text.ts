/** What the model reads of an MCP tool result: its text, with other content named, not inlined. */
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { AgentError } from '../wire/agent-error.ts';

/** An MCP tool answered with `isError: true`: the model reads its text as `Error: …`. */
export class McpToolError extends AgentError {
  override readonly name = 'McpToolError';
  readonly code = 'McpTool';
}

/** The result as text; throws McpToolError when the server says the call failed. */
export function resultText(result: CallToolResult): string {
  const parts = result.content.map((item): string => {
    switch (item.type) {
      case 'text':
        return item.text;
      case 'image':
      case 'audio':
        return `[${item.type} ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4)} bytes, not shown]`;
      case 'resource':
        return 'text' in item.resource ? item.resource.text : `[resource ${item.resource.uri} (${item.resource.mimeType ?? 'binary'}), not shown]`;
      case 'resource_link':
        return `[resource ${item.uri}${item.name ? ` (${item.name})` : ''}]`;
    }
  });
  const text = parts.length === 0 && result.structuredContent ? JSON.stringify(result.structuredContent) : parts.join('\n');
  if (result.isError) throw new McpToolError(text || 'the MCP tool reported an error without a message');
  return text;
}

/** An MCP progress notification as one of our progress labels. */
export function progressLabel(progress: Progress): string {
  if (progress.message) return progress.message;
  return progress.total ? `${progress.progress}/${progress.total}` : String(progress.progress);
}
