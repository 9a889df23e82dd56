/** The workflows this project registers (the worker bundles this file). */
export { agentWorkflow } from './agent.ts';
