/**
 * Builds a run's receipt from the events it emits (the same events its trace holds), so the workflow (as
 * it goes) and the eval (from a trace) derive it the same way. A pure reducer over plain data: the
 * workflow can keep the array in its state and carry it across continue-as-new. Sandbox-safe.
 */
import { REDACTED } from '../wire/redact.ts';
import type { ReceiptEntry } from '../wire/receipt.ts';
import type { TraceEvent } from '../wire/trace-events.ts';
import type { ClaimSpec } from './claim-specs.ts';
import { shorten } from './format-receipt.ts';

/** Side-effect tools (name → the arguments that name their object; empty: all arguments). */
export type ReceiptTools = ReadonlyMap<string, readonly string[]>;

/** The tools a receipt lists: those that are not read-only; key arguments from their claim specs. */
export function receiptToolsOf(contracts: readonly { name: string; readOnly: boolean }[], specs: Readonly<Record<string, ClaimSpec>> = {}): ReceiptTools {
  return new Map(contracts.filter((c) => !c.readOnly).map((c) => [c.name, specs[c.name]?.objectArg ? [specs[c.name]!.objectArg!] : []]));
}

const MAX_ARG_CHARS = 80;

/**
 * The key arguments of a call for its receipt entry: the `keys` given (a claim spec's `objectArg`), or, when
 * there are none, every argument; redacted fields masked; values as short strings.
 */
export function receiptArgs(args: Readonly<Record<string, unknown>>, keys: readonly string[], redact: readonly string[] = []): Record<string, string> {
  const names = keys.length ? keys.filter((k) => k in args) : Object.keys(args);
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = args[name];
    if (value === undefined) continue;
    out[name] = redact.includes(name) ? REDACTED : shorten(typeof value === 'string' ? value : JSON.stringify(value), MAX_ARG_CHARS);
  }
  return out;
}

/** Shown arguments (already redacted JSON, as in the trace) → the receipt's key arguments. */
function keyArgs(shown: string, keys: readonly string[]): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(shown);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return receiptArgs(parsed as Record<string, unknown>, keys);
  } catch {
    // an unparseable argument text shows nothing
  }
  return {};
}

/**
 * The receipt after one more event. Events of read-only tools and events that are not about tool calls
 * leave it as it is (`run_stopped` settles what is still pending). Returns a new array; entries are
 * replaced, never changed in place.
 */
export function applyToReceipt(receipt: readonly ReceiptEntry[], event: TraceEvent, tools: ReceiptTools): ReceiptEntry[] {
  if (event.type === 'run_stopped') {
    const why = event.reason === 'cancelled' ? 'cancelled' : `run stopped: ${event.reason ?? event.status}`;
    return receipt.map((e) =>
      e.outcome !== 'pending'
        ? e
        : e.detail === 'running'
          ? { ...e, outcome: 'interrupted', detail: `${why} while it ran; its effect is unknown` }
          : { ...e, outcome: 'not_run', detail: why },
    );
  }
  if (!('toolName' in event) || !tools.has(event.toolName)) return [...receipt];
  const keys = tools.get(event.toolName)!;
  const at = receipt.findIndex((e) => e.callKey === event.callKey);
  const earlier = at >= 0 ? receipt[at] : undefined;
  const put = (entry: Omit<ReceiptEntry, 'callKey' | 'tool' | 'args'> & { args?: Record<string, string> }): ReceiptEntry[] => {
    const { detail, ...rest } = entry;
    const next: ReceiptEntry = { callKey: event.callKey, tool: event.toolName, args: entry.args ?? earlier?.args ?? {}, ...rest, ...(detail ? { detail } : {}) };
    return at >= 0 ? receipt.map((e, i) => (i === at ? next : e)) : [...receipt, next];
  };
  switch (event.type) {
    case 'approval_required':
      return put({ args: keyArgs(event.args, keys), outcome: 'pending', detail: 'waiting for approval' });
    case 'approval_decided':
      return event.decision === 'approved' ? put({ outcome: 'pending', detail: 'approved' }) : put({ outcome: 'rejected', detail: event.reason || 'no reason' });
    case 'tool_denied':
      // The event carries no arguments today; when it does (`args`, shown and redacted), the receipt names the object.
      return put({ ...('args' in event && typeof event.args === 'string' ? { args: keyArgs(event.args, keys) } : {}), outcome: 'denied', detail: event.why });
    case 'tool_start':
      return put({ args: keyArgs(event.args, keys), outcome: 'pending', detail: 'running' });
    case 'tool_result':
      return event.ok ? put({ outcome: 'done' }) : put({ outcome: 'failed', detail: (event.error ?? 'failed').replace(/^Error:\s*/, '') });
    case 'tool_deduplicated': {
      const same = receipt.find((e) => e.callKey === event.sameAs);
      return put({ ...(same ? { args: same.args } : {}), outcome: 'deduplicated', detail: `same as ${event.sameAs}` });
    }
    default:
      return [...receipt];
  }
}

/** The receipt of a whole trace (or of the events so far). */
export function receiptFromEvents(events: readonly TraceEvent[], tools: ReceiptTools): ReceiptEntry[] {
  let receipt: ReceiptEntry[] = [];
  for (const event of events) receipt = applyToReceipt(receipt, event, tools);
  return receipt;
}
