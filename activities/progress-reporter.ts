import type { Client } from '@temporalio/client';
import { toolProgressSignal } from '../src/wire/messages.ts';

/** At most one progress signal per run and call in this interval; the latest label always gets through. */
const SIGNAL_EVERY_MS = 300;
/** How long a finished tool waits for its last signal to reach Temporal. */
const LAST_SIGNAL_WAIT_MS = 1000;

/**
 * Forwards a tool's progress labels to its workflow as signals (so the `state` query and the trace show
 * them), throttled: a chatty tool costs a few history events per second at most.
 */
export class ProgressReporter {
  private sentAt = 0;
  private latest: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();
  private readonly client: Client;
  private readonly target: { workflowId: string; callKey: string };

  constructor(client: Client, target: { workflowId: string; callKey: string }) {
    this.client = client;
    this.target = target;
  }

  report(label: string): void {
    this.latest = label;
    const wait = this.sentAt + SIGNAL_EVERY_MS - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  /**
   * Stops sending (a label not yet sent is dropped: the tool has finished) and waits, briefly, for the
   * signal on its way: one that reached Temporal after the tool's result would make Temporal refuse the
   * workflow task that ends the run (UnhandledCommand), and the run would be replayed to handle it.
   */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let wait: NodeJS.Timeout | undefined;
    await Promise.race([this.sending, new Promise<void>((resolve) => (wait = setTimeout(resolve, LAST_SIGNAL_WAIT_MS)))]);
    clearTimeout(wait);
  }

  private flush(): void {
    this.timer = null;
    if (this.latest === null) return;
    const label = this.latest;
    this.latest = null;
    this.sentAt = Date.now();
    // Progress is best effort: a lost label must never fail the tool.
    this.sending = this.client.workflow
      .getHandle(this.target.workflowId)
      .signal(toolProgressSignal, { callKey: this.target.callKey, label })
      .catch(() => {});
  }
}
