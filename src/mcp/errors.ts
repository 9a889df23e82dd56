/** A configured MCP server cannot be reached (at worker start, or when a call needs it). */
export class McpServerUnavailableError extends Error {
  override readonly name = 'McpServerUnavailableError';
  readonly server: string;

  constructor(server: string, message: string) {
    super(message);
    this.server = server;
  }

  static isInstance(error: unknown): error is McpServerUnavailableError {
    return error instanceof Error && error.name === 'McpServerUnavailableError';
  }
}

/** The worker's configuration makes an MCP server or tool `required`, and it is not there: the worker does not start. */
export class McpRequiredError extends Error {
  override readonly name = 'McpRequiredError';
}
