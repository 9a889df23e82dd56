/**
 * Content addresses: a transcript link is named by `linkHash` (src/wire/transcript-link.ts: the SHA-256 of
 * its canonical JSON, the name the workflow gives it) and a stored output by `output:<hex>` of the SHA-256
 * of its UTF-8 text. The stores keep the canonical JSON text itself, so verifying a read is hashing the
 * stored bytes.
 */
import { createHash } from 'node:crypto';
import { linkBody, type TranscriptLink } from '../wire/transcript-link.ts';
import { StoreIntegrityError } from './errors.ts';

/**
 * SHA-256 (hex) of the UTF-8 text with Node's native digest: the same digest as src/wire/sha256.ts's
 * portable `sha256Hex`, which the workflow sandbox needs (test/pure-helpers.test.ts checks they agree), and
 * ~25 times faster on what the store hashes on every write and read.
 */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Parses a stored link body after checking that it hashes to `hash`. */
export function verifiedLink(hash: string, body: string): TranscriptLink {
  const actual = digest(body);
  if (actual !== hash) {
    throw new StoreIntegrityError(`transcript link ${hash} is corrupt: its stored content hashes to ${actual}`, hash, actual);
  }
  const parsed = JSON.parse(body) as Partial<TranscriptLink>;
  if (!parsed || !Array.isArray(parsed.messages) || (parsed.prev !== null && typeof parsed.prev !== 'string')) {
    throw new StoreIntegrityError(`transcript link ${hash} is not a {prev, messages} object`, hash, actual);
  }
  return { prev: parsed.prev, messages: parsed.messages, ...(parsed.compaction ? { compaction: parsed.compaction } : {}) };
}

/** Checks, before storing, that `hash` names `link` (is its `linkHash`); returns the body to store. */
export function checkedLinkBody(hash: string, link: TranscriptLink): string {
  const body = linkBody(link);
  const actual = digest(body);
  if (actual !== hash) {
    throw new StoreIntegrityError(`refusing to store a transcript link under ${hash}: its content hashes to ${actual}`, hash, actual);
  }
  return body;
}

const OUTPUT_REF = /^output:[0-9a-f]{64}$/;

export function outputRef(text: string): string {
  return `output:${digest(text)}`;
}

export function isOutputRef(ref: string): boolean {
  return OUTPUT_REF.test(ref);
}

/** Returns `text` after checking that it hashes to `ref`. */
export function verifiedOutput(ref: string, text: string): string {
  const actual = outputRef(text);
  if (actual !== ref) throw new StoreIntegrityError(`stored output ${ref} is corrupt: its content hashes to ${actual}`, ref, actual);
  return text;
}
