/**
 * Workflow interceptors for tracing (bundled only when the worker traces: `src/telemetry/`): Temporal's
 * OpenTelemetry interceptors — the run's span, continued from the client's and carried to activities,
 * child runs and continue-as-new — and their tracer, with the OpenTelemetry API, lent to the run's own
 * spans (`telemetry.ts`).
 */
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import type { Next, UpdateInput, WorkflowInboundCallsInterceptor, WorkflowInterceptors } from '@temporalio/workflow';
import { useTracer } from './telemetry.ts';

class InboundInterceptor extends OpenTelemetryInboundInterceptor {
  get workflowTracer() {
    return this.tracer;
  }

  /**
   * Not traced: Temporal's span around an update handler adds awaits, so the update's completion would
   * be ordered differently among the run's commands than without tracing, and a history recorded with
   * tracing on would not replay with it off (nor the reverse). Updates are traced by the client's span
   * and the `ValidateUpdate` span (synchronous, so harmless); the approval itself is on the tool's span.
   */
  override handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>): Promise<unknown> {
    return next(input);
  }
}

export const interceptors = (): WorkflowInterceptors => {
  const inbound = new InboundInterceptor();
  useTracer(inbound.workflowTracer, { context, trace, SpanStatusCode });
  return { inbound: [inbound], outbound: [new OpenTelemetryOutboundInterceptor()], internals: [new OpenTelemetryInternalsInterceptor()] };
};
