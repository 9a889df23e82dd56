import { AgentError } from '../wire/agent-error.ts';

/** A configured MCP server cannot be reached (at worker start, or when a call needs it). */
export class McpServerUnavailableError extends AgentError {
  override readonly name = 'McpServerUnavailableError';
  readonly code = 'McpServerUnavailable';
  readonly server: string;

  constructor(server: string, message: string) {
    super(message);
    this.server = server;
  }
}

/** The worker's configuration makes an MCP server or tool `required`, and it is not there: the worker does not start. */
export class McpRequiredError extends AgentError {
  override readonly name = 'McpRequiredError';
  readonly code = 'McpRequired';
}
