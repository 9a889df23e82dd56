/**
 * durable-agent-harness: tool-using LLM agents whose loop is a Temporal workflow.
 *
 * The package's root: define tools (`defineTool`) and agents (`defineAgent`), run them on a worker
 * (`createAgentWorker`), start and steer runs (`AgentClient`), and the types that cross those boundaries. Loading it loads the worker
 * (Temporal's native runtime): a process that only starts runs, reads their state or decides what they
 * wait for imports `durable-agent-harness/client` instead.
 *
 * @packageDocumentation
 */

// Tools: declared in the user's code, run on the user's workers.
export { defineTool, defineToolContract, implementTool } from './tools/define-tool.ts';
export type { Risk, Tool, ToolContext, ToolContract, ToolOptions, ToolRetry } from './tools/define-tool.ts';
export type { ClaimSpec } from './claims/claim-specs.ts';
export type { ClaimKind } from './claims/claim-kinds.ts';
export { builtinTools } from './tools/registry.ts';

// Agents: instructions, model, tools, limits and policy, and what a run naming one may set.
export { defineAgent } from './agents/define-agent.ts';
export type { Agent, AgentAllowance, AgentDefinition, AgentOptions, LimitAllowance } from './agents/define-agent.ts';

// The worker, and the store its hosts share.
export { createAgentWorker, WorkerConfigError } from './worker/worker.ts';
export type { AgentWorker, AgentWorkerOptions } from './worker/worker.ts';
// Worker Versioning: a worker's deployment, and moving a pinned run to a build once it replays there.
export { deploymentFromEnv, DeploymentConfigError, DEPLOYMENT_BEHAVIORS } from './worker/deployment.ts';
export type { DeploymentBehavior, WorkerDeployment } from './worker/deployment.ts';
export { RunUpgradeRefusedError, upgradeRun } from './client/upgrade.ts';
export { loadProvidersFile, parseProvidersConfig, ProvidersConfigError } from './providers/providers-file.ts';
export type { ProviderConfig, ProvidersConfig, ProviderKind } from './providers/providers-file.ts';
export { LIST_PRICES, PRICES_AS_OF } from './providers/prices.ts';
export { openStore } from './store/open-store.ts';
export type { OpenStoreOptions } from './store/open-store.ts';
export type { AgentStore, EffectLedger } from './store/store.ts';

// The client, its errors and the run's types: the same as `durable-agent-harness/client`.
export * from './exports/client.ts';
