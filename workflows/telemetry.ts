/**
 * The run's own OpenTelemetry spans, made in the workflow from the trace events it emits: one
 * `execute_tool <name>` span per tool call (GenAI semantic conventions) with its risk, outcome and the
 * time it waited for a human's approval, and the run's outcome on the workflow's span. Workflow time,
 * and span ids from the workflow's seeded random: a replay makes the same spans, and the sink that
 * exports them is not called during replay, so no span is exported twice.
 *
 * Tracing is on only when the worker bundles `telemetry-interceptors.ts` (OTEL_EXPORTER_OTLP_ENDPOINT
 * set, or a test's exporter); without it no tracer is set and this does nothing. That module lends the
 * OpenTelemetry API too, so a bundle without tracing leaves the API out: the workflow modules are
 * evaluated again for every run, and the API's sixty-odd modules cost each run's creation 0.3 ms.
 */
import type * as OpenTelemetry from '@opentelemetry/api';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { TraceEvent } from '../src/wire/trace-events.ts';

/** The parts of `@opentelemetry/api` the run's spans use. */
export type OtelApi = Pick<typeof OpenTelemetry, 'context' | 'trace' | 'SpanStatusCode'>;

let otel: { tracer: OpenTelemetry.Tracer; api: OtelApi } | null = null;

/** Called by the telemetry interceptors module (bundled only when tracing is on). */
export function useTracer(tracer: OpenTelemetry.Tracer, api: OtelApi): void {
  otel = { tracer, api };
}

type Outcome = 'ok' | 'error' | 'rejected' | 'denied' | 'deduplicated' | 'interrupted';

interface OpenCall {
  span: OpenTelemetry.Span;
  approvalRequestedAt?: number;
}

export class RunSpans {
  /** The run's tools, for each call's risk. */
  tools: ReadonlyMap<string, ToolContract> = new Map();
  private readonly open = new Map<string, OpenCall>();

  onEvent(event: TraceEvent): void {
    if (!otel) return;
    switch (event.type) {
      case 'approval_required':
        this.call(event.toolName, event.callKey).approvalRequestedAt = Date.now();
        return;
      case 'approval_decided': {
        const call = this.call(event.toolName, event.callKey);
        call.span.setAttributes({ 'agent.approval.decision': event.decision, 'agent.approval.wait_ms': Date.now() - (call.approvalRequestedAt ?? Date.now()) });
        if (event.decision === 'rejected') this.end(event.callKey, 'rejected', event.reason);
        return;
      }
      case 'tool_start':
        this.call(event.toolName, event.callKey).span.setAttribute('gen_ai.tool.call.id', event.toolCallId);
        return;
      case 'tool_result':
        this.call(event.toolName, event.callKey).span.setAttribute('agent.tool.ms', event.ms);
        this.end(event.callKey, event.ok ? 'ok' : 'error', event.error);
        return;
      case 'tool_deduplicated':
        this.call(event.toolName, event.callKey).span.setAttribute('agent.tool.same_as', event.sameAs);
        this.end(event.callKey, 'deduplicated');
        return;
      case 'tool_denied':
        this.call(event.toolName, event.callKey);
        this.end(event.callKey, 'denied', event.why);
        return;
      case 'run_stopped': {
        for (const callKey of [...this.open.keys()]) this.end(callKey, 'interrupted');
        otel.api.trace.getActiveSpan()?.setAttributes({
          'agent.run.status': event.status,
          'agent.run.reason': event.reason ?? '',
          'agent.run.turns': event.turns,
          'agent.run.tool_runs': event.toolRuns,
          'agent.cost_usd': event.costUsd,
        });
        return;
      }
      default:
        return;
    }
  }

  /** Runs `fn` (the call's activity or child run) under the call's span, so its spans are the call's children. */
  within<T>(callKey: string, fn: () => Promise<T>): Promise<T> {
    const call = this.open.get(callKey);
    if (!call || !otel) return fn();
    const { context, trace } = otel.api;
    return context.with(trace.setSpan(context.active(), call.span), fn);
  }

  private call(toolName: string, callKey: string): OpenCall {
    let call = this.open.get(callKey);
    if (!call) {
      const contract = this.tools.get(toolName);
      const span = otel!.tracer.startSpan(`execute_tool ${toolName}`, {
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': toolName,
          'agent.call_key': callKey,
          'agent.tool.risk': contract?.risk ?? 'unknown',
          'agent.tool.read_only': contract?.readOnly ?? false,
        },
      });
      call = { span };
      this.open.set(callKey, call);
    }
    return call;
  }

  private end(callKey: string, outcome: Outcome, message?: string): void {
    const call = this.open.get(callKey);
    if (!call) return;
    this.open.delete(callKey);
    call.span.setAttribute('agent.tool.outcome', outcome);
    if (outcome === 'error') call.span.setStatus({ code: otel!.api.SpanStatusCode.ERROR, ...(message ? { message: message.slice(0, 500) } : {}) });
    call.span.end();
  }
}
