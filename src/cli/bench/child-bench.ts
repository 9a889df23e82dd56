/**
 * Benches that run as their own process (they start their own servers and workers): their tables are
 * printed as they print them, after the main report.
 */
import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../paths.ts';

export const CHILD_BENCHES = {
  /** Event appended in the store → received by SSE clients; how many clients one process serves. */
  sse: { title: 'live events: store → SSE client latency, concurrent clients (src/cli/bench/sse-latency.ts)', args: ['src/cli/bench/sse-latency.ts'] },
  /** Tracing on vs off per turn, and an MCP tool call vs a built-in tool. */
  'otel-mcp': { title: 'OpenTelemetry on vs off per turn; an MCP tool call vs a built-in tool (src/cli/bench/telemetry-mcp.ts)', args: ['src/cli/bench/telemetry-mcp.ts', '40'] },
} as const;

export type ChildBench = keyof typeof CHILD_BENCHES;

export function runChildBench(name: ChildBench): Promise<string> {
  const { title, args } = CHILD_BENCHES[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(`\n${title}\n\n${out.trimEnd()}`) : reject(new Error(`${args[0]} exited with ${code}`))));
  });
}
