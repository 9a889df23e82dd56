/** Tool implementations by name: what the worker can run. Worker side only (I/O). */
import type { EffectLedger } from '../store/store.ts';
import type { Tool } from './define-tool.ts';
import { createDeleteFile } from './delete-file.ts';
import { listFiles, readTextFile, writeTextFile } from './file-tools.ts';
import { runCommand } from './run-command.ts';
import { scanFiles } from './scan-files.ts';
import { createSendMessage } from './send-message.ts';

export type ToolRegistry = ReadonlyMap<string, Tool>;

export function createToolRegistry(tools: readonly Tool[]): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Tool "${tool.name}" is registered twice.`);
    byName.set(tool.name, tool);
  }
  return byName;
}

/** The built-in tools; side-effect tools keep their ledger entries in the store every worker host shares. */
export function builtinTools(ledger: EffectLedger): Tool[] {
  return [
    listFiles,
    readTextFile,
    writeTextFile,
    createDeleteFile(ledger),
    createSendMessage(ledger),
    runCommand,
    scanFiles,
  ] as Tool[];
}

/** `registry` with `tool` added, looked up live: a registry that learns tools later (MCP servers') still answers them. */
export function withTool(registry: ToolRegistry, tool: Tool): ToolRegistry {
  return registry.has(tool.name) ? registry : new RegistryWith(registry, tool);
}

class RegistryWith extends Map<string, Tool> {
  private readonly base: ToolRegistry;

  constructor(base: ToolRegistry, tool: Tool) {
    super([...base, [tool.name, tool]]);
    this.base = base;
  }

  override get(name: string): Tool | undefined {
    return super.get(name) ?? this.base.get(name);
  }

  override has(name: string): boolean {
    return this.get(name) !== undefined;
  }
}
