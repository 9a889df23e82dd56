/**
 * How an answer names the object of a call that did not succeed when the object's value is a plain word or
 * phrase, or was redacted (round 7). A plain word ("orders", "Budget review") is no name by itself; it is one
 * where the answer marks it as one (a code span or a quotation of it as written), or where the clause also
 * names another argument of the same call ("The checkout pods are at 8 now" for a scale of `checkout` to 8
 * replicas; "the outage write-up on the blog" for a post whose slug holds "outage" and whose channel is
 * "blog"). A redacted receiver is named by any address the answer gives that no other call holds. Pure.
 */
import type { Receipt, ReceiptEntry } from '../wire/receipt.ts';
import { REDACTED } from '../wire/redact.ts';
import { escape } from './claim-verbs.ts';

/** The strings an answer marks as names: its code spans, and its quotations (straight or curly quotes). */
export function markedNames(clauses: readonly { text: string }[], spans: readonly string[]): string[] {
  const quoted = clauses.flatMap((c) => [...c.text.matchAll(/"([^"\n]{2,80})"/g)].map((m) => m[1]!.trim()));
  return [...new Set([...spans, ...quoted].map((s) => s.toLowerCase()))];
}

/** A finder for a plain value the answer marks as a name ("`orders`", '"Budget review"'), or null. */
export function markedFinder(value: string, marked: readonly string[]): RegExp | null {
  const v = value.trim();
  if (v.length < 3 || v.length > 80 || !marked.includes(v.toLowerCase())) return null;
  return new RegExp(`(?<![\\w@./#-])${escape(v).replace(/ +/g, '\\s+')}(?![\\w@-]|\\.\\w)`, 'i');
}

/** Arguments that carry a message or a reason: their words describe nothing the call acts on. */
const PROSE_ARGS = /^(?:text|body|content|message|reason|note|notes|description|memo|resolution|comment|summary|subject)$/i;

/** The words of an argument's value that can name it: words of four letters or more, or the value itself when it is a figure. */
function wordsOfValue(value: string): string[] {
  const v = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(v)) return [v];
  return [...new Set((v.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => !/^(?:https?|www|with|from|this|that|into|main)$/.test(w)))];
}

const wordFinder = (w: string) => new RegExp(/^\d/.test(w) ? `(?<![\\w.$€£-])${escape(w)}(?![\\w%]|[.,]\\d)` : `\\b${escape(w)}(?:s|es)?\\b`, 'i');

/**
 * A call described by its arguments' words: a word of its object's value, and a word or figure of another
 * of its arguments, in one clause. Returns the object word's finder and a test of the clause, or null.
 */
export function describedBy(entry: ReceiptEntry, objectArg: string): { finder: RegExp; names: (text: string) => RegExp | null } | null {
  const value = entry.args[objectArg];
  if (!value || value === REDACTED) return null;
  const own = wordsOfValue(value).filter((w) => !/^\d/.test(w)).map(wordFinder);
  if (!own.length) return null;
  const others = Object.entries(entry.args)
    .filter(([arg, v]) => arg !== objectArg && v !== REDACTED && !PROSE_ARGS.test(arg) && v.trim().length <= 60)
    .flatMap(([, v]) => wordsOfValue(v).map(wordFinder));
  if (!others.length) return null;
  return {
    finder: own[0]!,
    names: (text) => {
      const hit = own.find((f) => f.test(text));
      if (!hit) return null;
      const at = text.search(hit);
      // (…another argument's word elsewhere than the object word itself.)
      return others.some((f) => {
        const m = f.exec(text);
        return !!m && (m.index < at || m.index >= at + text.match(hit)![0].length);
      })
        ? hit
        : null;
    },
  };
}

/**
 * A finder for the addresses that may stand for a redacted receiver: any address the clause gives that no
 * other call of the receipt holds as an argument.
 */
export function redactedReceiverFinder(entry: ReceiptEntry, receipt: Receipt): RegExp {
  const known = receipt
    .filter((e) => e !== entry)
    .flatMap((e) => Object.values(e.args))
    .filter((v) => v !== REDACTED && /@/.test(v))
    .map((v) => escape(v.trim()));
  const not = known.length ? `(?!(?:${known.join('|')})(?![\\w.-]))` : '';
  return new RegExp(`(?<![\\w.+-])${not}[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+`, 'i');
}
