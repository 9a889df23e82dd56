/** The test MCP server (test/mcp/server.ts) as a worker's configuration: stdio, or streamable HTTP in a process of its own. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';

export const TEST_MCP_SERVER = path.join(PROJECT_ROOT, 'test', 'mcp', 'server.ts');

export interface McpEvent {
  server: string;
  pid: number;
  tool: string;
  event?: string;
  args?: Record<string, unknown>;
  key?: string | null;
}

/** A stdio server entry: `node test/mcp/server.ts`, logging to `dir` under `name`. */
export function stdioServer(dir: string, name: string, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [TEST_MCP_SERVER], env: { MCP_TEST_DIR: dir, MCP_TEST_NAME: name }, ...extra };
}

/** Writes a configuration file and points AGENT_MCP_CONFIG at it (the harness's workers read it). */
export function useMcpConfig(dir: string, servers: Record<string, unknown>, file = 'mcp.json'): string {
  const configFile = path.join(dir, file);
  writeFileSync(configFile, JSON.stringify({ servers }, null, 2));
  process.env.AGENT_MCP_CONFIG = configFile;
  return configFile;
}

export function mcpEvents(dir: string): McpEvent[] {
  const file = path.join(dir, 'events.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as McpEvent);
}

export function serverPid(dir: string, name: string): number {
  return Number(readFileSync(path.join(dir, `${name}.pid`), 'utf8'));
}

/** The test server over streamable HTTP, in a process of its own. */
export async function startHttpServer(dir: string, name: string): Promise<{ url: string; process: ChildProcess; stop(): void }> {
  const child = spawn(process.execPath, [TEST_MCP_SERVER, '--http'], { env: { ...process.env, MCP_TEST_DIR: dir, MCP_TEST_NAME: name }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`the HTTP MCP server exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, process: child, stop: () => void child.kill() };
}
