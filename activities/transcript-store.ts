/**
 * The transcript as a content-addressed chain: each model call appends the messages that are new since
 * the previous call as one blob `{prev, messages}` named by the SHA-256 of its canonical JSON. The
 * workflow keeps only the head hash and sends only what is new, so Temporal history grows with each
 * turn's new content, not with the whole transcript. Blobs live under `<dataDir>/transcripts`; workers
 * on several hosts share that directory (a volume), and a worker missing a blob asks the run itself.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../workflows/canonical-json.ts';
import type { ChatMessage } from '../workflows/types.ts';

interface Link {
  prev: string | null;
  messages: ChatMessage[];
}

export class TranscriptMissingError extends Error {
  override readonly name = 'TranscriptMissingError';
}

export function linkHash(prev: string | null, messages: readonly ChatMessage[]): string {
  return createHash('sha256').update(canonicalJson({ prev, messages })).digest('hex');
}

export class TranscriptStore {
  readonly dir: string;
  /** Whole transcripts by head, most recent last: a run's next call finds its previous head here. */
  private readonly cache = new Map<string, ChatMessage[]>();
  private readonly maxCached: number;

  constructor(dir: string, maxCached = 256) {
    this.dir = dir;
    this.maxCached = maxCached;
    mkdirSync(dir, { recursive: true });
  }

  /** Stores `messages` after `prev` and returns the new head; the same link twice is one blob. */
  append(prev: string | null, messages: ChatMessage[]): string {
    const head = linkHash(prev, messages);
    const file = this.fileOf(head);
    if (!existsSync(file)) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ prev, messages } satisfies Link));
      renameSync(tmp, file);
    }
    return head;
  }

  /** The whole transcript ending at `head`, or throws TranscriptMissingError naming the missing link. */
  load(head: string | null): ChatMessage[] {
    if (head === null) return [];
    const cached = this.cache.get(head);
    if (cached) return this.remember(head, cached);
    const chain: Link[] = [];
    let at: string | null = head;
    let base: ChatMessage[] = [];
    while (at !== null) {
      const hit = this.cache.get(at);
      if (hit) {
        base = hit;
        break;
      }
      const file = this.fileOf(at);
      if (!existsSync(file)) throw new TranscriptMissingError(`transcript link ${at} is not in ${this.dir}`);
      const link = JSON.parse(readFileSync(file, 'utf8')) as Link;
      chain.push(link);
      at = link.prev;
    }
    let messages = base;
    for (const link of chain.reverse()) messages = messages.concat(link.messages);
    return this.remember(head, messages);
  }

  private remember(head: string, messages: ChatMessage[]): ChatMessage[] {
    this.cache.delete(head);
    this.cache.set(head, messages);
    if (this.cache.size > this.maxCached) this.cache.delete(this.cache.keys().next().value!);
    return messages;
  }

  private fileOf(head: string): string {
    return path.join(this.dir, `${head}.json`);
  }
}
