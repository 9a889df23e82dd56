/**
 * `serve` with its request log on (AGENT_HTTP_LOG=1, to stdout) over a client that knows no run, for
 * tests that read what the log shows. Prints `listening <url>` on stderr; Ctrl-C or SIGTERM ends it.
 * Tokens come from AGENT_HTTP_TOKENS as usual.
 */
import { RunNotFoundError, type AgentClient } from '../../src/client/client.ts';
import { serveHttp } from '../../src/http/serve.ts';
import type { AgentStore } from '../../src/store/store.ts';

const agents = {
  requireRun: (runId: string) => Promise.reject(new RunNotFoundError(`No run ${runId}.`)),
} as unknown as AgentClient;
const server = await serveHttp({ agents, store: {} as AgentStore, host: '127.0.0.1', port: 0, env: { ...process.env, AGENT_HTTP_LOG: '1' }, log: () => {} });
process.stderr.write(`listening ${server.url}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
