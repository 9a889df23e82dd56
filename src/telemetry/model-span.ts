/**
 * A `chat <model>` span around every model call, with the GenAI semantic conventions: the model asked
 * for, input and output tokens, finish reason, and our cost (the price table's, as the run counts it).
 * An activity interceptor: `callModel` itself knows nothing of tracing.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context as ActivityContext } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, ActivityInterceptors, Next } from '@temporalio/worker';
import type { CallModelInput } from '../../activities/call-model.ts';
import { costOf, recordedRunPrice } from '../wire/pricing.ts';
import type { ModelReply } from '../wire/types.ts';

class ModelCallSpan implements ActivityInboundCallsInterceptor {
  private readonly ctx: ActivityContext;

  constructor(ctx: ActivityContext) {
    this.ctx = ctx;
  }

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    if (this.ctx.info.activityType !== 'callModel') return next(input);
    const request = input.args[0] as CallModelInput;
    const scripted = request.model.startsWith('scripted:');
    const attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': scripted ? 'scripted' : 'openai',
      'gen_ai.request.model': request.model,
      'gen_ai.conversation.id': request.runId,
      'agent.tools_offered': request.toolNames.length,
      'temporal.activity.attempt': this.ctx.info.attempt,
    };
    return trace.getTracer('agent-harness').startActiveSpan(`chat ${request.model}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        const reply = (await next(input)) as ModelReply;
        span.setAttributes({
          'gen_ai.usage.input_tokens': reply.usage.promptTokens,
          'gen_ai.usage.output_tokens': reply.usage.completionTokens,
          ...(reply.usage.cachedPromptTokens ? { 'gen_ai.usage.cache_read.input_tokens': reply.usage.cachedPromptTokens } : {}),
          ...(reply.usage.reasoningTokens ? { 'gen_ai.usage.reasoning.output_tokens': reply.usage.reasoningTokens } : {}),
          'gen_ai.response.finish_reasons': [reply.finishReason],
          'agent.cost_usd': costOf(reply.usage, reply.price ?? recordedRunPrice(request.model)),
          'agent.tool_calls': reply.message.tool_calls?.length ?? 0,
        });
        return reply;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        span.setAttribute('error.type', (error as Error).name);
        throw error;
      } finally {
        span.end();
      }
    });
  }
}

export function modelCallSpans(ctx: ActivityContext): ActivityInterceptors {
  return { inbound: new ModelCallSpan(ctx) };
}
