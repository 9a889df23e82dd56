/**
 * The transcript as a content-addressed chain: each model call adds one link, the messages new since the
 * previous call after `prev`, named by the SHA-256 of the link's canonical JSON. The workflow names the
 * link it sends (`linkHash`), the model-call activity stores it under that name, and the store checks that
 * the name fits (src/store/content-address.ts). Sandbox-safe.
 */
import { canonicalJson } from './canonical-json.ts';
import { sha256Hex } from './sha256.ts';
import type { ChatMessage } from './types.ts';

/** One link as the store keeps it: the messages new since `prev` (null for the first link). */
export interface TranscriptLink {
  prev: string | null;
  messages: ChatMessage[];
}

/** What a model call carries of the transcript: the new link's messages (`append`) after `prev`, and its name. */
export interface TranscriptUpdate {
  prev: string | null;
  append: ChatMessage[];
  head: string;
}

/** The stored form of a link: the canonical JSON of `{prev, messages}`. */
export function linkBody(link: TranscriptLink): string {
  return canonicalJson({ prev: link.prev, messages: link.messages });
}

/** The name of a link: the SHA-256 (hex) of its body. */
export function linkHash(link: TranscriptLink): string {
  return sha256Hex(linkBody(link));
}
