/**
 * Which workspaces runs may use. A run's `workspace` comes from whoever starts it; a worker honours it
 * only under the roots it is configured with (`AGENT_WORKSPACE_ROOTS`, default: the demo workspace), and
 * the client refuses others before starting a run. Symbolic links are resolved where the path exists.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../paths.ts';
import { AgentError } from '../wire/agent-error.ts';
import { FailureType } from '../wire/failures.ts';

/** A run named a workspace outside the roots this process allows (`AGENT_WORKSPACE_ROOTS`). */
export class WorkspaceRefusedError extends AgentError {
  override readonly name = 'WorkspaceRefusedError';
  readonly code = FailureType.workspaceRefused;
}

/** The configured roots: `AGENT_WORKSPACE_ROOTS` (separated by `:`), else the default workspace. */
export function workspaceRoots(): string[] {
  const configured = process.env.AGENT_WORKSPACE_ROOTS?.split(path.delimiter).filter(Boolean);
  return (configured?.length ? configured : [defaultWorkspacePath()]).map((root) => path.resolve(root));
}

/** `AGENT_WORKSPACE`, else `<data>/workspace` (a copy of examples/workspace). */
export function defaultWorkspacePath(): string {
  return path.resolve(process.env.AGENT_WORKSPACE ?? path.join(dataDir(), 'workspace'));
}

/** Throws WorkspaceRefusedError unless `workspace` is one of `roots` or lies inside one. */
export function checkWorkspace(workspace: string, roots: readonly string[]): void {
  const real = realOrResolved(workspace);
  if (roots.some((root) => isInside(real, realOrResolved(root)))) return;
  throw new WorkspaceRefusedError(
    `Workspace ${workspace} is outside the allowed workspace roots (${roots.join(', ')}). ` +
      'Use a directory under one of them, or add its root to AGENT_WORKSPACE_ROOTS on the client and every worker.',
  );
}

function isInside(target: string, root: string): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The real path when it exists here (a client may not see a worker's disk), else the resolved one. */
function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
