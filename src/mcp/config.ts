/**
 * A worker's MCP servers (`AGENT_MCP_CONFIG`: a JSON or YAML file). Each server is a `stdio` command or a
 * streamable-HTTP URL; per server, and per tool over it, what the harness must know and an MCP server
 * cannot be trusted to say: risk, read-only, timeout, how much of a result the model sees, whether it
 * honours an idempotency key, and whether the worker may start without it. What the configuration does
 * not state takes the safe default: high risk (every call asks a human) and side effects.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { RISKS } from '../wire/types.ts';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../wire/payload-bounds.ts';
import { AgentError } from '../wire/agent-error.ts';

const toolSettingsSchema = z
  .object({
    risk: z.enum(RISKS).optional(),
    readOnly: z.boolean().optional(),
    timeoutMs: z.number().int().positive().optional(),
    maxOutputChars: z.number().int().positive().optional(),
    /** The server honours the idempotency key sent in `_meta` (so a retried call does not act twice). */
    idempotent: z.boolean().optional(),
    /** Top-level argument fields masked in traces, state and CLI output. */
    redact: z.array(z.string()).optional(),
  })
  .strict();

const serverSchema = toolSettingsSchema
  .extend({
    /** Inferred from `command` (stdio) or `url` (http) when absent. */
    transport: z.enum(['stdio', 'http']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    /** Added to the default environment of the server process; `${VAR}` takes the worker's VAR. */
    env: z.record(z.string(), z.string()).default({}),
    /** Working directory of the server process (default: the configuration file's directory). */
    cwd: z.string().optional(),
    url: z.url({ protocol: /^https?$/ }).optional(),
    /** Sent with every HTTP request (e.g. `Authorization: Bearer ${MCP_TOKEN}`). */
    headers: z.record(z.string(), z.string()).default({}),
    /** The worker refuses to start when this server cannot be reached (default: it starts without its tools). */
    required: z.boolean().default(false),
    connectTimeoutMs: z.number().int().positive().default(10_000),
    /** Settings per tool (over the server's); `required: true` makes the worker refuse to start without that tool. */
    tools: z.record(z.string(), toolSettingsSchema.extend({ required: z.boolean().default(false) }).strict()).default({}),
  })
  .strict()
  .refine((s) => (s.command === undefined) !== (s.url === undefined), 'give either `command` (stdio) or `url` (streamable HTTP), not both')
  .refine((s) => !s.transport || (s.transport === 'stdio') === (s.command !== undefined), '`transport` does not match: stdio needs `command`, http needs `url`');

export const mcpConfigSchema = z
  .object({
    servers: z.record(
      z.string().regex(/^[a-zA-Z0-9][a-zA-Z0-9-]{0,30}$/, 'a server name is 1-31 letters, digits or "-" (tools are named server__tool)'),
      serverSchema,
    ),
  })
  .strict();

export type McpConfigInput = z.input<typeof mcpConfigSchema>;
export type McpServerConfig = z.output<typeof serverSchema> & { name: string };
export type McpToolSettings = Required<Omit<z.output<typeof toolSettingsSchema>, 'redact'>> & { redact: string[] };

export class McpConfigError extends AgentError {
  override readonly name = 'McpConfigError';
  readonly code = 'McpConfig';
}

/** The servers of a configuration (an object, or the file that holds it); relative paths are the file's. */
export function parseMcpConfig(raw: unknown, baseDir = process.cwd()): McpServerConfig[] {
  const parsed = mcpConfigSchema.safeParse(raw);
  if (!parsed.success) throw new McpConfigError(`Invalid MCP configuration: ${z.prettifyError(parsed.error)}`);
  return Object.entries(parsed.data.servers).map(([name, server]) => ({
    ...server,
    name,
    cwd: path.resolve(baseDir, server.cwd ?? '.'),
    env: expandAll(server.env, name),
    headers: expandAll(server.headers, name),
  }));
}

export function loadMcpConfigFile(file: string): McpServerConfig[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new McpConfigError(`Cannot read the MCP configuration ${file} (AGENT_MCP_CONFIG): ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
  return parseMcpConfig(raw, path.dirname(path.resolve(file)));
}

/** The servers `AGENT_MCP_CONFIG` names; none when it is unset. */
export function mcpConfigFromEnv(): McpServerConfig[] {
  const file = process.env.AGENT_MCP_CONFIG;
  return file ? loadMcpConfigFile(file) : [];
}

/** One tool's settings: the tool's, else the server's, else the safe defaults. */
export function toolSettings(server: McpServerConfig, tool: string): McpToolSettings {
  const own: z.output<typeof toolSettingsSchema> = server.tools[tool] ?? {};
  return {
    risk: own.risk ?? server.risk ?? 'high',
    readOnly: own.readOnly ?? server.readOnly ?? false,
    timeoutMs: own.timeoutMs ?? server.timeoutMs ?? 60_000,
    maxOutputChars: own.maxOutputChars ?? server.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
    idempotent: own.idempotent ?? server.idempotent ?? false,
    redact: own.redact ?? server.redact ?? [],
  };
}

function expandAll(values: Record<string, string>, server: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
        const found = process.env[name];
        if (found === undefined) throw new McpConfigError(`MCP server "${server}": ${key} uses \${${name}}, which is not set in the worker's environment.`);
        return found;
      }),
    ]),
  );
}
