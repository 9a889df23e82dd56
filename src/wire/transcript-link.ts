/**
 * The transcript as a content-addressed chain: each model call adds one link, the messages new since the
 * previous call after `prev`, named by the SHA-256 of the link's canonical JSON. The workflow names the
 * link it sends (`linkHash`), the model-call activity stores it under that name, and the store checks that
 * the name fits (src/store/content-address.ts). Sandbox-safe.
 */
import { canonicalJson } from './canonical-json.ts';
import { sha256Hex } from './sha256.ts';
import type { ChatMessage } from './types.ts';

/**
 * One link as the store keeps it: the messages new since `prev` (null for the first link). A compaction
 * link (`compaction` set) is another kind: its `messages` are the whole conversation the model is sent from
 * then on, and `prev` the head it replaced (kept, for audit and `record`): reading stops at it.
 */
export interface TranscriptLink {
  prev: string | null;
  messages: ChatMessage[];
  compaction?: CompactionRecord;
}

/** What a compaction replaced and by what (`activities/compact-context.ts`). */
export interface CompactionRecord {
  /** Tool results replaced by stubs: their position in the conversation before, tool, call id, size and kept reference. */
  elided: { index: number; tool: string; toolCallId: string; chars: number; ref: string }[];
  /** Messages (positions `from`..`to`, exclusive, in the conversation before) replaced by one summary message, if any. */
  summarised: { from: number; to: number; summaryChars: number } | null;
  /** The request's size in tokens before and after, as the run counts it (`activities/context-count.ts`). */
  tokensBefore: number;
  tokensAfter: number;
}

/** What a model call carries of the transcript: the new link's messages (`append`) after `prev`, and its name. */
export interface TranscriptUpdate {
  prev: string | null;
  append: ChatMessage[];
  head: string;
}

/** The stored form of a link: the canonical JSON of `{prev, messages}`. */
export function linkBody(link: TranscriptLink): string {
  // Plain links hash as they always have: the compaction record is only there when there is one.
  return canonicalJson(link.compaction ? { prev: link.prev, messages: link.messages, compaction: link.compaction } : { prev: link.prev, messages: link.messages });
}

/** The name of a link: the SHA-256 (hex) of its body. */
export function linkHash(link: TranscriptLink): string {
  return sha256Hex(linkBody(link));
}
