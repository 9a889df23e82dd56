/**
 * The compaction activity: the conversation the next model call would send is made smaller, in steps, and
 * stored as a compaction link (`TranscriptLink.compaction`) after the head it replaces, which stays in the
 * store with everything before it. Steps, each only if the request is still over `targetTokens`:
 * 1. old tool results (before the last `keepTurns` turns) become stubs naming their kept `output:<sha256>`;
 * 2. the older turns become one summary, made by the run's model (`summarise.ts`);
 * 3. the tool results of the kept turns but the latest become stubs too.
 * `force` (the provider refused the request) takes steps 1 and 2 whatever the count says.
 */
import { owningRun } from './owning-run.ts';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { AgentStore } from '../src/store/store.ts';
import type { CompactionRecord, TranscriptUpdate } from '../src/wire/transcript-link.ts';
import type { ChatMessage, Usage } from '../src/wire/types.ts';
import { ActivityHeartbeats } from './heartbeats.ts';
import { toOpenAIMessage } from './call-model.ts';
import { elidable, summarisable, summaryMessage, turnsCovered } from './compaction-plan.ts';
import { stubText } from '../src/wire/compaction-text.ts';
import { counterFor, messageTokens } from './context-count.ts';
import { routeFor, type ModelEndpoints } from './model-endpoints.ts';
import { orStoreFailure } from './store-failures.ts';
import { summarise } from './summarise.ts';
import { TranscriptMissingError, type TranscriptChain } from './transcript.ts';

/** What a summary call is sent at most when the window is unknown (a refusal that named none): fits any model of 8k tokens. */
const UNKNOWN_WINDOW_SUMMARY_CHARS = 16_000;

export interface CompactContextInput {
  runId: string;
  model: string;
  /** The link the model call was to send (stored again here: putting a link twice is a no-op). */
  transcript: TranscriptUpdate;
  /** What the request (messages and `overheadTokens`) should fit in. */
  targetTokens: number;
  /** What the request takes besides its messages (the tool definitions), as the model call counted it. */
  overheadTokens: number;
  keepTurns: number;
  summaryPrompt: string;
  /** The provider refused the request: elide and summarise whatever the count says. */
  force: boolean;
}

export interface CompactContextResult {
  /** The compaction link, or the link given when nothing could be compacted (`tokensAfter` = `tokensBefore`). */
  head: string;
  tokensBefore: number;
  tokensAfter: number;
  elided: number;
  elidedChars: number;
  /** Messages replaced by the summary (0: no summary was made). */
  summarised: number;
  /** The summary call's usage (null: none was made). */
  usage: Usage | null;
}

export interface CompactContextDeps {
  endpoints: ModelEndpoints;
  store: AgentStore;
  transcripts: TranscriptChain;
}

export function createCompactContext({ endpoints, store, transcripts }: CompactContextDeps) {
  return async function compactContext(input: CompactContextInput): Promise<CompactContextResult> {
    const ctx = Context.current();
    const { prev, append, head } = input.transcript;
    const before = await orStoreFailure(
      (async () => {
        await transcripts.append(prev, append, head);
        return transcripts.load(head);
      })(),
    ).catch((error: unknown) => {
      if (error instanceof TranscriptMissingError) throw ApplicationFailure.retryable(`${error.message}: every worker must use the same store (AGENT_STORE_URL).`, error.code);
      throw error;
    });
    const counter = await counterFor(input.model);
    const tokens = (messages: readonly ChatMessage[]) => input.overheadTokens + messageTokens(counter, messages.map(toOpenAIMessage));
    const tokensBefore = tokens(before);
    let messages = [...before];
    const record: CompactionRecord = { elided: [], summarised: null, tokensBefore, tokensAfter: tokensBefore };
    const over = () => input.force || tokens(messages) > input.targetTokens;

    // Stubs keep each message's place: positions stay those of the conversation before.
    const elide = async (indexes: readonly number[]) => {
      for (const index of indexes) {
        const m = messages[index]!;
        if (m.role !== 'tool') continue;
        const ref = await orStoreFailure(store.putOutput(m.content, owningRun()));
        const elided = { index, tool: m.name, toolCallId: m.tool_call_id, chars: m.content.length, ref };
        record.elided.push(elided);
        messages[index] = { ...m, content: stubText(elided) };
      }
    };

    let usage: Usage | null = null;
    if (over()) await elide(elidable(messages, input.keepTurns));
    const range = over() ? summarisable(messages, input.keepTurns) : null;
    if (range) {
      const heartbeats = await orStoreFailure(ActivityHeartbeats.start(ctx, store, input.runId));
      try {
        // The summary call too must fit: it is sent at most about half the target (2 characters a token: on the safe side).
        const turns = turnsCovered(messages, range.from, range.to);
        const maxChars = input.targetTokens > 0 ? input.targetTokens * 2 : UNKNOWN_WINDOW_SUMMARY_CHARS;
        const summary = await summarise(routeFor(input.model, endpoints), input.summaryPrompt, turns, messages.slice(range.from, range.to), maxChars, heartbeats.signal);
        usage = summary.usage;
        const replaced = range.to - range.from;
        messages = [...messages.slice(0, range.from), summaryMessage(turns, summary.text), ...messages.slice(range.to)];
        record.summarised = { from: range.from, to: range.from + replaced, summaryChars: summary.text.length };
      } catch (error) {
        if (heartbeats.signal.aborted) await heartbeats.untilTemporalCancels('The summary call');
        throw error;
      } finally {
        heartbeats.close();
      }
    }
    // Still over: the kept turns' results but the latest turn's go too (positions are now the new conversation's).
    if (tokens(messages) > input.targetTokens) await elide(elidable(messages, 1));

    const elidedChars = record.elided.reduce((sum, e) => sum + e.chars, 0);
    const summarised = record.summarised ? record.summarised.to - record.summarised.from : 0;
    if (!record.elided.length && !record.summarised) return { head, tokensBefore, tokensAfter: tokensBefore, elided: 0, elidedChars: 0, summarised: 0, usage };
    record.tokensAfter = tokens(messages);
    const compacted = await orStoreFailure(transcripts.compact(head, messages, record));
    return { head: compacted, tokensBefore, tokensAfter: record.tokensAfter, elided: record.elided.length, elidedChars, summarised, usage };
  };
}
