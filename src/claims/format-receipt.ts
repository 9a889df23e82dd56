/** A receipt as text: one entry (`rejected: delete_file access.log (no reason)`) or the CLI line. Pure. */
import type { Receipt, ReceiptEntry, ReceiptOutcome } from '../wire/receipt.ts';

const OUTCOME_LABEL: Record<ReceiptOutcome, string> = {
  done: 'done',
  failed: 'failed',
  rejected: 'rejected',
  denied: 'denied',
  deduplicated: 'deduplicated',
  not_run: 'not run',
  interrupted: 'interrupted',
  pending: 'pending',
};

const MAX_DETAIL_CHARS = 120;

/** `rejected: delete_file access.log (no reason)`. */
export function formatReceiptEntry(entry: ReceiptEntry): string {
  const args = Object.values(entry.args).join(' ');
  const detail = entry.detail ? ` (${shorten(entry.detail, MAX_DETAIL_CHARS)})` : '';
  return `${OUTCOME_LABEL[entry.outcome]}: ${entry.tool}${args ? ` ${args}` : ''}${detail}`;
}

/** The CLI line: `done: write_file notes.txt · rejected: delete_file access.log (no reason)`. */
export function formatReceipt(receipt: Receipt): string {
  return receipt.length ? receipt.map(formatReceiptEntry).join(' · ') : 'no side effects';
}

/** One line, at most `max` characters (the last one "…" when cut). */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
