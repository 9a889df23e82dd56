/**
 * Compares what the harness sends the model with what a recording says it sent, message by message, and
 * names the first difference in words a person can act on: "turn 3: tool result of read_file (t2.1)
 * differs: recorded "…", replay "…"". Pure.
 */
import type { ChatMessage } from '../wire/types.ts';

/** A message as both sides can show it: the OpenAI wire form and the harness's ChatMessage. */
export interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; function?: { name: string; arguments: string }; name?: string; arguments?: string }[];
  tool_call_id?: string;
}

interface Comparable {
  role: string;
  content: string | null;
  calls: string | null;
  toolCallId: string | null;
}

function comparable(message: WireMessage): Comparable {
  const calls = message.tool_calls?.length
    ? JSON.stringify(message.tool_calls.map((c) => ({ id: c.id, name: c.function?.name ?? c.name, arguments: c.function?.arguments ?? c.arguments })))
    : null;
  return { role: message.role, content: message.content ?? null, calls, toolCallId: message.role === 'tool' ? (message.tool_call_id ?? '') : null };
}

/** Which call key each tool message answers (t<turn>.<n>), by position after its assistant message. */
function callKeysOf(messages: readonly WireMessage[]): (string | null)[] {
  const keys: (string | null)[] = messages.map(() => null);
  let turn = 0;
  messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    turn++;
    (message.tool_calls ?? []).forEach((_, n) => {
      if (messages[i + 1 + n]?.role === 'tool') keys[i + 1 + n] = `t${turn}.${n + 1}`;
    });
  });
  return keys;
}

/**
 * The first difference between the recorded and the sent messages (from message `from` on), or null when
 * they are the same. `turn` is 1-based.
 */
export function firstDifference(turn: number, recorded: readonly ChatMessage[], sent: readonly WireMessage[], from = 0): string | null {
  const keys = callKeysOf(recorded);
  const names = recorded.map((m) => (m.role === 'tool' ? m.name : null));
  const count = Math.min(recorded.length, sent.length);
  for (let i = from; i < count; i++) {
    const a = comparable(recorded[i]!);
    const b = comparable(sent[i]!);
    if (a.role !== b.role) return `turn ${turn}: message ${i + 1} is ${describe(b, null, null)} where the recording has ${describe(a, names[i] ?? null, keys[i] ?? null)}`;
    for (const field of ['content', 'calls', 'toolCallId'] as const) {
      if (a[field] === b[field]) continue;
      const what = field === 'content' ? describe(a, names[i] ?? null, keys[i] ?? null) : field === 'calls' ? `the tool calls of ${describe(a, null, null)}` : `the tool_call_id of ${describe(a, names[i] ?? null, keys[i] ?? null)}`;
      return `turn ${turn}: ${what} differs: ${contrast(a[field] ?? 'null', b[field] ?? 'null')}`;
    }
  }
  if (sent.length < recorded.length) {
    return `turn ${turn}: the harness sent ${sent.length} messages, the recording has ${recorded.length}: missing ${describe(comparable(recorded[count]!), names[count] ?? null, keys[count] ?? null)}`;
  }
  if (sent.length > recorded.length) {
    return `turn ${turn}: the harness sent ${sent.length} messages, the recording has ${recorded.length}: extra ${describe(comparable(sent[count]!), null, null)} ${JSON.stringify(clip(sent[count]!.content ?? '', 80))}`;
  }
  return null;
}

function describe(message: Comparable, toolName: string | null, callKey: string | null): string {
  switch (message.role) {
    case 'system':
      return 'the system prompt';
    case 'user':
      return 'a user message';
    case 'assistant':
      return 'an assistant reply';
    case 'tool':
      return `tool result${toolName ? ` of ${toolName}` : ''}${callKey ? ` (${callKey})` : ''}`;
    default:
      return `a ${message.role} message`;
  }
}

/** The two texts around their first differing character, clipped. */
export function contrast(recorded: string, replay: string): string {
  let at = 0;
  while (at < recorded.length && at < replay.length && recorded[at] === replay[at]) at++;
  const from = Math.max(0, at - 30);
  const show = (text: string) => `${from > 0 ? '…' : ''}${clip(text.slice(from), 90)}`;
  return `recorded ${JSON.stringify(show(recorded))}, replay ${JSON.stringify(show(replay))}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
