/** Client interceptors that start a run's trace (`StartWorkflow`), carried into the workflow in headers; none when tracing is off. */
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ClientInterceptors } from '@temporalio/client';
import type { Telemetry } from './setup.ts';

export function tracingClientInterceptors(telemetry: Telemetry | null): ClientInterceptors | undefined {
  return telemetry ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : undefined;
}
