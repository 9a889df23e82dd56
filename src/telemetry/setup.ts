/**
 * Tracing for this process, set up once: exported through OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT`
 * (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, to a given exporter when a caller installs one (tests,
 * bench), and off otherwise: no provider, no interceptors, nothing bundled into the workflow — no cost.
 * The OpenTelemetry SDK is loaded only when tracing is on (it is about a fifth of a worker's start-up).
 */
import { createRequire } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type { Resource } from '@opentelemetry/resources';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

import { reportExportErrors } from './export-errors.ts';

/** Synchronous, like `setupTelemetry` (the packages are CommonJS: the same instances `import` would give). */
export const loadOnUse = createRequire(import.meta.url);

export interface Telemetry {
  /** Where finished spans go (the workflow's spans reach it through a sink). */
  spanProcessor: SpanProcessor;
  resource: Resource;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** Spans go here instead of OTLP (tests: an InMemorySpanExporter); exported one by one, at once. */
  exporter?: SpanExporter;
  serviceName?: string;
}

let current: Telemetry | null | undefined;

/** Whether the environment asks for tracing. */
export function telemetryRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Installs tracing for the process (the first call wins; later calls return it). Without an exporter and
 * with no OTLP endpoint in the environment, tracing stays off and this returns null.
 */
export function setupTelemetry(options: TelemetryOptions = {}): Telemetry | null {
  if (current !== undefined && (current !== null || !options.exporter)) return current;
  if (!options.exporter && !telemetryRequested()) return (current = null);
  const { AsyncLocalStorageContextManager } = loadOnUse('@opentelemetry/context-async-hooks') as typeof ContextAsyncHooks;
  const { OTLPTraceExporter } = loadOnUse('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { Resource } = loadOnUse('@opentelemetry/resources') as typeof Resources;
  const { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } = loadOnUse('@opentelemetry/sdk-trace-base') as typeof SdkTraceBase;
  const resource = Resource.default().merge(new Resource({ 'service.name': options.serviceName ?? process.env.OTEL_SERVICE_NAME ?? 'agent-harness' }));
  // OTLPTraceExporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and _HEADERS itself.
  const spanProcessor = options.exporter ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(new OTLPTraceExporter());
  if (!options.exporter) reportExportErrors();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register({ contextManager: new AsyncLocalStorageContextManager().enable() });
  current = {
    spanProcessor,
    resource,
    forceFlush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      current = undefined;
    },
  };
  return current;
}

/** Tracing as installed (or as the environment asks for it): null when off. */
export function activeTelemetry(): Telemetry | null {
  return setupTelemetry();
}
