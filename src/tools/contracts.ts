/**
 * The built-in tools' contracts: the single list the workflow and the worker agree on by name.
 * Sandbox-safe (zod only): the workflow bundle imports this file.
 */
import { z } from 'zod';
import { defineToolContract, type ToolContract } from './define-tool.ts';

export const listFilesContract = defineToolContract({
  name: 'list_files',
  description: 'List the files in the workspace (or in a sub-directory of it), with their sizes in bytes.',
  input: z.object({
    dir: z.string().optional().describe('Sub-directory of the workspace; omit for its root.'),
  }),
  output: z.string(),
  readOnly: true,
  risk: 'low',
  timeoutMs: 10_000,
});

export const readFileContract = defineToolContract({
  name: 'read_file',
  description: 'Read a text file from the workspace. Paths are relative to the workspace root.',
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace root, e.g. "errors.log".'),
  }),
  output: z.string(),
  readOnly: true,
  risk: 'low',
  timeoutMs: 10_000,
});

export const toolContracts: readonly ToolContract[] = [listFilesContract, readFileContract];

export const contractsByName: ReadonlyMap<string, ToolContract> = new Map(toolContracts.map((c) => [c.name, c]));
