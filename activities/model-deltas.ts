/**
 * The model's text as it streams, published to the run's live event stream in the store (for SSE
 * clients), batched so a fast stream costs a few writes per second. Best effort: a lost delta never
 * fails the model call — the final text is in the turn's reply and the transcript.
 */
import type { AgentStore } from '../src/store/store.ts';

const BATCH_MS = 100;

export interface ModelDeltaEvent {
  type: 'model_delta';
  /** Deltas of one model call attempt share this; a retried call starts a new one. */
  callId: string;
  text: string;
}

export class ModelDeltas {
  private readonly store: AgentStore;
  private readonly runId: string;
  private readonly callId: string;
  private buffered = '';
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(store: AgentStore, runId: string, callId: string) {
    this.store = store;
    this.runId = runId;
    this.callId = callId;
  }

  push(text: string): void {
    this.buffered += text;
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  /** Publishes what is buffered and waits for every write (in order). */
  async close(): Promise<void> {
    this.flush();
    await this.writing;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.buffered) return;
    const event: ModelDeltaEvent = { type: 'model_delta', callId: this.callId, text: this.buffered };
    this.buffered = '';
    this.writing = this.writing.then(() => this.store.appendEvent(this.runId, event)).catch(() => {});
  }
}
