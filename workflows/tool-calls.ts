/** Pure helpers for turning a model's tool call into validated arguments. */
import { z } from 'zod';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { ToolCall } from '../src/wire/types.ts';

export type ParsedToolCall =
  | { ok: true; contract: ToolContract; args: Record<string, unknown> }
  | { ok: false; error: string };

/** Parses and validates a tool call against the tools this run offers; the error text is for the model. */
export function parseToolCall(call: ToolCall, offered: ReadonlyMap<string, ToolContract>): ParsedToolCall {
  const contract = offered.get(call.name);
  if (!contract) {
    const names = [...offered.keys()].join(', ') || '(none)';
    return { ok: false, error: `unknown tool "${call.name}". The tools that exist are: ${names}.` };
  }
  let raw: unknown;
  try {
    raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (error) {
    return {
      ok: false,
      error: `the arguments for ${call.name} are not valid JSON (${(error as Error).message}). Send a JSON object.`,
    };
  }
  const parsed = contract.input.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, error: `invalid arguments for ${call.name}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}` };
  }
  return { ok: true, contract, args: parsed.data as Record<string, unknown> };
}
