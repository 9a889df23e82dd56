import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { implementTool } from './define-tool.ts';
import { listFilesContract, readFileContract, writeFileContract } from './contracts.ts';
import { resolveInWorkspace } from './workspace.ts';

export const listFiles = implementTool(listFilesContract, async ({ dir }, ctx) => {
  const target = await resolveInWorkspace(ctx.workspace, dir ?? '.');
  const entries = await readdir(target, { withFileTypes: true });
  const lines: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) lines.push(`${entry.name}/`);
    else if (entry.isFile()) lines.push(`${entry.name} (${(await stat(path.join(target, entry.name))).size} bytes)`);
  }
  return lines.length ? lines.join('\n') : '(no files)';
});

export const readTextFile = implementTool(readFileContract, async ({ path: requested }, ctx) => {
  const target = await resolveInWorkspace(ctx.workspace, requested);
  try {
    return await readFile(target, { encoding: 'utf8', signal: ctx.signal });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`${requested} does not exist. Call list_files to see which files exist.`);
    if (code === 'EISDIR') throw new Error(`${requested} is a directory. Call list_files with dir="${requested}".`);
    if (code === 'EACCES') throw new Error(`${requested} cannot be read: permission denied.`);
    throw error;
  }
});

export const writeTextFile = implementTool(writeFileContract, async ({ path: requested, content }, ctx) => {
  const target = await resolveInWorkspace(ctx.workspace, requested);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, content, { signal: ctx.signal });
  return `Wrote ${requested} (${Buffer.byteLength(content)} bytes).`;
});
