/**
 * One MCP server, as a worker holds it: one client connection (stdio child process or streamable HTTP),
 * opened at worker start, shared by every call, and opened again by the next call after the server died
 * or the connection closed. Its tool list is refreshed when the server says it changed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Progress, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './config.ts';
import { McpServerUnavailableError } from './errors.ts';
import { STDERR_TAIL_CHARS, stderrExcerpt } from './stderr-excerpt.ts';

export interface McpCallOptions {
  signal: AbortSignal;
  onprogress: (progress: Progress) => void;
  timeoutMs: number;
  /** Sent as the request's `_meta` (the idempotency key, the run and the call). */
  meta: Record<string, string>;
}

const CLIENT_INFO = { name: 'durable-agent-harness', version: '0.1.0' };

export class McpServerConnection {
  readonly config: McpServerConfig;
  /** The tools the server listed last (kept while it is down: the next call reconnects). */
  tools: McpTool[] = [];
  /** Why the last connection attempt failed or the connection closed; null while connected. */
  lastError: string | null = null;
  /** When the last connection attempt was made (ms since epoch). */
  lastAttemptAt = 0;
  /** Called after the tool list changed (a `tools/list_changed` notification, or a reconnect). */
  onToolsChanged: () => void = () => {};
  private client: Client | null = null;
  private opening: Promise<Client> | null = null;
  private transport: Transport | null = null;
  private stderrTail = '';
  private closed = false;

  constructor(config: McpServerConfig) {
    this.config = config;
  }

  get connected(): boolean {
    return this.client !== null;
  }

  /** The stdio server's process id (null for HTTP, or while down). */
  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null;
  }

  get transportName(): 'stdio' | 'http' {
    return this.config.command !== undefined ? 'stdio' : 'http';
  }

  /** The live client: the pooled one, or a new connection (one attempt at a time, shared by concurrent callers). */
  async connect(): Promise<Client> {
    if (this.closed) throw new McpServerUnavailableError(this.config.name, `MCP server "${this.config.name}": the worker is shutting down.`);
    if (this.client) return this.client;
    this.opening ??= this.open().finally(() => (this.opening = null));
    return this.opening;
  }

  async callTool(tool: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
    const client = await this.connect();
    const result = await client.callTool({ name: tool, arguments: args, _meta: options.meta }, undefined, {
      signal: options.signal,
      onprogress: options.onprogress,
      timeout: options.timeoutMs,
      maxTotalTimeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
    });
    // Servers of protocol versions before 2024-11-05 answer `{ toolResult }`.
    return 'content' in result ? (result as CallToolResult) : { content: [{ type: 'text', text: JSON.stringify(result.toolResult) }] };
  }

  /** Lists the tools again (after the server said they changed, or a call named one it did not list). */
  async refreshTools(): Promise<void> {
    const client = await this.connect();
    this.tools = await listAllTools(client);
    this.onToolsChanged();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => {});
  }

  private async open(): Promise<Client> {
    const { name, connectTimeoutMs } = this.config;
    this.lastAttemptAt = Date.now();
    this.stderrTail = '';
    const transport = this.newTransport();
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = null;
      this.lastError = `the connection closed${this.stderrNote()}`;
    };
    client.onerror = () => {}; // transport errors surface as failed requests or a close
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.refreshTools().catch(() => {});
    });
    try {
      await client.connect(transport, { timeout: connectTimeoutMs });
      this.tools = await listAllTools(client, connectTimeoutMs);
    } catch (error) {
      await client.close().catch(() => {});
      this.lastError = `${(error as Error).message}${this.stderrNote()}`;
      throw new McpServerUnavailableError(name, `MCP server "${name}" (${this.describe()}) is unavailable: ${this.lastError}`);
    }
    this.transport = transport;
    this.client = client;
    this.lastError = null;
    this.onToolsChanged();
    return client;
  }

  private newTransport(): Transport {
    const { command, args, env, cwd, url, headers } = this.config;
    if (command !== undefined) {
      const transport = new StdioClientTransport({ command, args, env: { ...getDefaultEnvironment(), ...env }, cwd, stderr: 'pipe' });
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      return transport;
    }
    return new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers } });
  }

  /** How the server is reached, for error messages. */
  describe(): string {
    const { command, args, url } = this.config;
    return command !== undefined ? `stdio: ${[command, ...args].join(' ')}` : `http: ${url}`;
  }

  private stderrNote(): string {
    const tail = this.stderrTail.trim();
    return tail ? ` (its stderr: ${stderrExcerpt(tail)})` : '';
  }
}

async function listAllTools(client: Client, timeout?: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, timeout ? { timeout } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
