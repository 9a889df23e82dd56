/**
 * The transcript as a content-addressed chain in the store: each model call appends the messages new
 * since the previous call as one link `{prev, messages}`, named by the SHA-256 of its canonical JSON
 * (the workflow computes the same name). The workflow keeps only the head, so history grows with each
 * turn's new content, not with the whole transcript. Every worker host reads the same store; a per-worker
 * cache of whole transcripts by head saves the chain walk on the next turn of the same run.
 */
import type { AgentStore } from '../src/store/store.ts';
import type { ChatMessage } from '../src/wire/types.ts';
import { linkHash, type CompactionRecord } from '../src/wire/transcript-link.ts';
import { AgentError } from '../src/wire/agent-error.ts';
import { FailureType } from '../src/wire/failures.ts';
import { owningRun } from './owning-run.ts';

export class TranscriptMissingError extends AgentError {
  override readonly name = 'TranscriptMissingError';
  readonly code = FailureType.transcriptMissing;
}

export class TranscriptChain {
  private readonly store: AgentStore;
  /** Whole transcripts by head, most recent last. */
  private readonly cache = new Map<string, ChatMessage[]>();
  private readonly maxCached: number;

  constructor(store: AgentStore, maxCached = 256) {
    this.store = store;
    this.maxCached = maxCached;
  }

  /** Stores `messages` after `prev` under `head`; the store refuses a head that does not name them. */
  async append(prev: string | null, messages: ChatMessage[], head: string): Promise<void> {
    await this.store.putLink(head, { prev, messages }, owningRun());
  }

  /** Stores a compaction link (its messages: the whole conversation from now on) after `prev`; returns its head. */
  async compact(prev: string, messages: ChatMessage[], compaction: CompactionRecord): Promise<string> {
    const link = { prev, messages, compaction };
    const head = linkHash(link);
    await this.store.putLink(head, link, owningRun());
    return head;
  }

  /** The whole transcript ending at `head`, or throws TranscriptMissingError naming the missing link. */
  async load(head: string | null): Promise<ChatMessage[]> {
    if (head === null) return [];
    const links: ChatMessage[][] = [];
    let base: ChatMessage[] = [];
    for (let at: string | null = head; at !== null; ) {
      const cached = this.cache.get(at);
      if (cached) {
        base = cached;
        break;
      }
      const link = await this.store.getLink(at);
      if (!link) throw new TranscriptMissingError(`transcript link ${at} is not in the store (${this.store.location})`);
      links.push(link.messages);
      // A compaction link holds the whole conversation sent from then on; what it replaced is behind it.
      at = link.compaction ? null : link.prev;
    }
    const messages = base.concat(...links.reverse());
    this.cache.delete(head);
    this.cache.set(head, messages);
    if (this.cache.size > this.maxCached) this.cache.delete(this.cache.keys().next().value!);
    return messages;
  }
}
