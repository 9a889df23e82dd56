/** For tests and benchmarks: wraps the real scan_files tool to record, per call, when it ran, its last progress label, and when and why its signal aborted. */
import type { EffectLedger } from '../../store/store.ts';
import type { Tool } from '../../tools/define-tool.ts';
import { implementTool } from '../../tools/define-tool.ts';
import { builtinTools } from '../../tools/registry.ts';
import { scanFiles } from '../../tools/scan-files.ts';

export interface ScanObservation {
  startedAt: number;
  endedAt?: number;
  abortedAt?: number;
  /** The abort's reason: the run's stop as announced in the store (by the client or the workflow), or Temporal's cancellation of the activity. */
  abortReason?: string;
  lastLabel?: string;
}

export function observedTools(observations: Map<string, ScanObservation>, options: { ignoreSignal?: boolean } = {}) {
  return (ledger: EffectLedger): Tool[] =>
    builtinTools(ledger).map((tool) =>
      tool.name !== 'scan_files'
        ? tool
        : (implementTool(scanFiles, async (args, ctx) => {
            const seen: ScanObservation = { startedAt: performance.now() };
            observations.set(`${ctx.runId}:${ctx.callKey}`, seen);
            ctx.signal.addEventListener('abort', () => {
              seen.abortedAt = performance.now();
              seen.abortReason = ctx.signal.reason instanceof Error ? ctx.signal.reason.message : String(ctx.signal.reason);
            });
            const never = new AbortController().signal;
            try {
              return await scanFiles.run(args, {
                ...ctx,
                // A tool that does not listen to its signal, to prove it gets abandoned.
                signal: options.ignoreSignal ? never : ctx.signal,
                progress: (label) => {
                  seen.lastLabel = label;
                  ctx.progress(label);
                },
              });
            } finally {
              seen.endedAt = performance.now();
            }
          }) as Tool),
    );
}
