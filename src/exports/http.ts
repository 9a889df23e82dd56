/**
 * `durable-agent-harness/http`: the HTTP API, live event streams and the approvals inbox, served for an
 * `AgentClient` and the workers' store (what `npm run agent -- serve` runs).
 *
 * @packageDocumentation
 */
export { DEFAULT_HTTP_PORT, serveHttp, UnsafeListenError } from '../http/serve.ts';
export type { HttpServer, ServeOptions } from '../http/serve.ts';
