/**
 * `gc [--older-than 30d] [--dry-run]`: removes finished runs' traces, events, transcript links and kept
 * outputs from the store once they are older than the retention (AGENT_RETENTION_DAYS, default 30 days).
 * Asks Temporal about each run first: one it reports open stays (src/store/retention.ts says what else stays).
 */
import { RunNotFoundError } from '../client/client.ts';
import { collectGarbage, gcReportLines, parseAge, RetentionSettingError, retentionMs } from '../store/retention.ts';
import { NO_WORKER, UsageError, withRuntime, type Invocation } from './context.ts';

export function gcCommand(inv: Invocation): Promise<number> {
  let olderThanMs: number;
  try {
    olderThanMs = inv.values['older-than'] !== undefined ? parseAge(inv.values['older-than']) : retentionMs();
  } catch (error) {
    if (error instanceof RetentionSettingError) throw new UsageError(error.message);
    throw error;
  }
  return withRuntime(NO_WORKER, async (rt) => {
    const report = await collectGarbage(rt.store, {
      olderThanMs,
      dryRun: inv.values['dry-run'] ?? false,
      isOpen: async (runId) => {
        try {
          return (await rt.agents.requireRun(runId)).open;
        } catch (error) {
          if (error instanceof RunNotFoundError) return false; // Temporal's own retention has dropped it: finished long ago
          throw error;
        }
      },
    });
    for (const line of gcReportLines(report, rt.store.location)) console.log(line);
    return 0;
  });
}
