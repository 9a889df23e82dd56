/**
 * `durable-agent-harness/testing`: what tests and local development run on instead of a provider and a
 * Temporal cluster. The scripted model (an OpenAI-compatible server that plays scenarios: a worker serves
 * `scripted:/abs/path/scenario.ts` models with `createAgentWorker({ scriptedModel: { scenarioDirs } })`)
 * and the Temporal dev server.
 *
 * @packageDocumentation
 */
export { call, text, toolText } from '../scripted-model/scenario.ts';
export type { Scenario, ScriptedMessage, ScriptedReply } from '../scripted-model/scenario.ts';
export { startScriptedModelServer } from '../scripted-model/server.ts';
export type { RecordedRequest, ScriptedModelOptions, ScriptedModelServer } from '../scripted-model/server.ts';
export { ensureTemporal, startDevServer } from '../temporal/temporal-server.ts';
export type { DevServerOptions, TemporalEndpoint } from '../temporal/temporal-server.ts';
