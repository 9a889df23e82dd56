/** Client interceptors that start a run's trace (`StartWorkflow`), carried into the workflow in headers; none when tracing is off. */
import type { ClientInterceptors } from '@temporalio/client';
import type * as TemporalOtel from '@temporalio/interceptors-opentelemetry';
import { loadOnUse, type Telemetry } from './setup.ts';

export function tracingClientInterceptors(telemetry: Telemetry | null): ClientInterceptors | undefined {
  if (!telemetry) return undefined;
  const { OpenTelemetryWorkflowClientInterceptor } = loadOnUse('@temporalio/interceptors-opentelemetry') as typeof TemporalOtel;
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
