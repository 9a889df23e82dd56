/** The log level of Temporal's native runtime (Core), which every worker and native connection share. */
import { DefaultLogger, Runtime } from '@temporalio/worker';

let installed = false;

export interface TemporalRuntimeOptions {
  /**
   * The process decides what a signal does (the CLI: Ctrl-C on `run` cancels the run first, and the worker
   * stops after): Temporal's runtime then installs no handler of its own. By default it drains every worker
   * on SIGINT/SIGTERM, which on `run` stopped the worker before the cancel could reach the run.
   */
  ownSignals?: boolean;
}

/** Temporal's own INFO lines (worker state changes) drown the run's output; keep warnings and errors. */
export function quietTemporalLogs(options: TemporalRuntimeOptions = {}): void {
  if (installed) return;
  installed = true;
  Runtime.install({
    logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN' | undefined) ?? 'WARN'),
    ...(options.ownSignals ? { shutdownSignals: [] } : {}),
  });
}
