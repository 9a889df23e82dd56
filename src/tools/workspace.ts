import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../wire/agent-error.ts';

/** A path the model asked for that would leave the workspace, or that no file may have. Told to the model as a tool error. */
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
  // Node refuses a path with a NUL byte (ERR_INVALID_ARG_VALUE): say so as a refusal the model can act on.
  if (requested.includes('\0')) {
    throw new WorkspaceEscapeError(`${JSON.stringify(requested)} contains a NUL character, which no file name may hold; name the file without it.`);
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
    const code = (error as NodeJS.ErrnoException).code;
    // Too long a name, or a loop of links: no file can be there; say which path, not Node's errno.
    if (code === 'ENAMETOOLONG' || code === 'ELOOP') {
      throw new WorkspaceEscapeError(`"${requested.length > 200 ? `${requested.slice(0, 200)}…` : requested}" cannot be opened (${code === 'ELOOP' ? 'a loop of symbolic links' : 'a name longer than the file system allows'}); use an existing path in the workspace.`);
    }
    // A missing file, or a "directory" on the way that is a file: where it would be is checked as for a missing one.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    real = path.join(await realpath(path.dirname(target)).catch(() => path.dirname(target)), path.basename(target));
  }
  if (real !== root && !real.startsWith(root + path.sep)) {
    throw new WorkspaceEscapeError(`"${requested}" resolves outside the workspace (through a symbolic link); access refused.`);
  }
  return real;
}
