import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../wire/agent-error.ts';

/** A path the model asked for that would leave the workspace. Told to the model as a tool error. */
export class WorkspaceEscapeError extends AgentError {
  override readonly name = 'WorkspaceEscapeError';
  readonly code = 'WorkspaceEscape';
}

/**
 * Resolves `requested` inside `workspace`, refusing absolute paths, `..` segments and symlinks that
 * lead out of it. Returns the real path of the target (or of its would-be location when absent).
 */
export async function resolveInWorkspace(workspace: string, requested: string): Promise<string> {
  if (path.isAbsolute(requested)) {
    throw new WorkspaceEscapeError(`"${requested}" is an absolute path; use a path relative to the workspace root.`);
  }
  if (requested.split(/[\\/]+/).includes('..')) {
    throw new WorkspaceEscapeError(`"${requested}" contains "..": paths must stay inside the workspace.`);
  }
  const root = await realpath(workspace);
  const target = path.resolve(root, requested);
  let real: string;
  try {
    real = await realpath(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    real = path.join(await realpath(path.dirname(target)).catch(() => path.dirname(target)), path.basename(target));
  }
  if (real !== root && !real.startsWith(root + path.sep)) {
    throw new WorkspaceEscapeError(`"${requested}" resolves outside the workspace (through a symbolic link); access refused.`);
  }
  return real;
}
