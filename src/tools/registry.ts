/** Tool implementations by name: what the worker can run. Worker side only (I/O). */
import type { Tool } from './define-tool.ts';
import { listFiles, readTextFile } from './file-tools.ts';

export type ToolRegistry = ReadonlyMap<string, Tool>;

export function createToolRegistry(tools: readonly Tool[]): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Tool "${tool.name}" is registered twice.`);
    byName.set(tool.name, tool);
  }
  return byName;
}

export const builtinTools: readonly Tool[] = [listFiles, readTextFile] as readonly Tool[];
