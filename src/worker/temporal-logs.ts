/** The log level of Temporal's native runtime (Core), which every worker and native connection share. */
import { DefaultLogger, Runtime } from '@temporalio/worker';

let installed = false;

/** Temporal's own INFO lines (worker state changes) drown the run's output; keep warnings and errors. */
export function quietTemporalLogs(): void {
  if (installed) return;
  installed = true;
  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN' | undefined) ?? 'WARN') });
}
