/** Tool implementations by name: what the worker can run. Worker side only (I/O). */
import path from 'node:path';
import type { Tool } from './define-tool.ts';
import { createDeleteFile } from './delete-file.ts';
import { listFiles, readTextFile, writeTextFile } from './file-tools.ts';
import { EffectLedger } from './ledger.ts';
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

/** The built-in tools; side-effect tools keep their ledgers under `<dataDir>/ledgers`. */
export function builtinTools(dataDir: string): Tool[] {
  const ledgers = path.join(dataDir, 'ledgers');
  return [
    listFiles,
    readTextFile,
    writeTextFile,
    createDeleteFile(new EffectLedger(ledgers, 'delete_file')),
    createSendMessage(new EffectLedger(ledgers, 'send_message')),
    runCommand,
    scanFiles,
  ] as Tool[];
}
