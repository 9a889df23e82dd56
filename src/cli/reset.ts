/**
 * `reset`: the demo workspace afresh. The demo's runs act on a copy of examples/workspace in the data
 * directory (never on the repository), and an approved delete there is for good; this copies it again.
 */
import { rmSync } from 'node:fs';
import { AGENT, log, UsageError } from './context.ts';
import { demoWorkspace } from './runtime.ts';
import { defaultWorkspacePath } from '../tools/workspace-roots.ts';

export function resetDemoWorkspace(): number {
  if (process.env.AGENT_WORKSPACE) {
    throw new UsageError(`AGENT_WORKSPACE names a workspace of your own (${process.env.AGENT_WORKSPACE}): "${AGENT} reset" only restores the demo workspace, so it leaves yours alone.`);
  }
  rmSync(defaultWorkspacePath(), { recursive: true, force: true });
  log(`The demo workspace ${demoWorkspace()} is a fresh copy of examples/workspace.`);
  return 0;
}
