/** What a tracing worker adds: Temporal's activity interceptors, our model-call spans, the workflow span sink and the traced bundle. */
import type * as TemporalOtel from '@temporalio/interceptors-opentelemetry';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { codeModule } from '../paths.ts';
import { modelCallSpans } from './model-span.ts';
import { loadOnUse, type Telemetry } from './setup.ts';

/** Bundled into the workflow code when the worker traces. */
export const TELEMETRY_INTERCEPTORS_MODULE = codeModule('workflows', 'telemetry-interceptors');

export interface TracingWorkerOptions {
  interceptors?: WorkerInterceptors;
  sinks: InjectedSinks<OpenTelemetrySinks> | Record<string, never>;
  interceptorModules: string[];
}

export function tracingWorkerOptions(telemetry: Telemetry | null): TracingWorkerOptions {
  if (!telemetry) return { sinks: {}, interceptorModules: [] };
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } = loadOnUse('@temporalio/interceptors-opentelemetry') as typeof TemporalOtel;
  return {
    interceptors: {
      // Temporal's first, so the model-call span is a child of the activity's span.
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }), modelCallSpans],
    },
    sinks: { exporter: workflowSpanSink(telemetry) },
    interceptorModules: [TELEMETRY_INTERCEPTORS_MODULE],
  };
}

/**
 * Temporal's sink for workflow spans, given less of the workflow's info: it copies every field of
 * WorkflowInfo (memo, search attributes, retry policy, …) into every workflow span's attributes, which
 * made each span several KiB (the run's live state is in its memo). The identifying fields are kept.
 * Not called during replay (the default for sinks): a replayed workflow task exports no span twice.
 */
function workflowSpanSink(telemetry: Telemetry): InjectedSinks<OpenTelemetrySinks>['exporter'] {
  const { makeWorkflowExporter } = loadOnUse('@temporalio/interceptors-opentelemetry') as typeof TemporalOtel;
  const exporter = makeWorkflowExporter(telemetry.spanProcessor, telemetry.resource);
  return {
    export: {
      fn: (info, spans) => exporter.export.fn(spanInfo(info), spans),
      callDuringReplay: false,
    },
  };
}

function spanInfo(info: WorkflowInfo): WorkflowInfo {
  const { workflowId, runId, workflowType, taskQueue, namespace, attempt, historyLength } = info;
  // Only these reach the span's attributes; the sink's type asks for the whole WorkflowInfo.
  return { workflowId, runId, workflowType, taskQueue, namespace, attempt, historyLength } as WorkflowInfo;
}
