import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { isMcpToolName } from '../src/tools/mcp-contracts.ts';
import { readableContract, readableDefinition, type ToolDefinition } from '../src/tools/tool-definition.ts';
import { FailureType } from '../src/wire/failures.ts';
import { formatCount, MAX_REPLY_CHARS } from '../src/wire/payload-bounds.ts';
import type { ChatMessage, ModelReply, ToolCall } from '../src/wire/types.ts';
import type { TranscriptUpdate } from '../src/wire/transcript-link.ts';
import { clientFor, routeFor, type ModelEndpoints, type ModelRoute } from './model-endpoints.ts';
import { modelFailure } from '../src/providers/model-errors.ts';
import { checkedReply, usageOf } from '../src/providers/chat-reply.ts';
import { streamedChat, type ChatRequest, type RawReply } from '../src/providers/chat-stream.ts';
import { reasoningItemCount, responsesCall } from '../src/providers/responses-wire.ts';
import type { AgentStore } from '../src/store/store.ts';
import { ModelDeltas } from './model-deltas.ts';
import { orStoreFailure } from './store-failures.ts';
import { TranscriptMissingError, type TranscriptChain } from './transcript.ts';
import { modelContextQuery } from '../src/wire/messages.ts';
import { ActivityHeartbeats } from './heartbeats.ts';
import { LocalCallInterruptions } from './local-call-interruptions.ts';
import type { Client } from '@temporalio/client';
import { contextTooLongFailure, overBudget, type ContextBudget } from './context-budget.ts';
import type { OverBudget } from '../src/wire/context-window.ts';
import { toolContracts } from '../src/tools/contracts.ts';
import { claimCheckTool } from '../src/claims/claim-check-tool.ts';
import type { ClaimCheckTool } from '../src/wire/claim-check.ts';
import type { ClaimWarning, Receipt } from '../src/wire/receipt.ts';
import type { ClaimChecker } from './check-claims.ts';

export interface CallModelInput {
  runId: string;
  model: string;
  /** Only what is new since the previous call travels in history: the store holds the rest. */
  transcript: TranscriptUpdate;
  toolNames: string[];
  stream: boolean;
  /** Also offer the worker's MCP tools, and return their definitions with the reply (`ModelReply.mcpTools`). */
  withMcpTools?: boolean;
  /** A local call only (its workflow's timer cannot reach it): when the run's wall time is up, epoch ms. */
  wallDeadlineMs?: number;
  /** Return the digest of what the worker offers (`ModelReply.offerDigest`): the first call of each execution asks. */
  withOfferDigest?: boolean;
  /** The run's context budget: a request over it is not sent (`OverBudget`, `context-budget.ts`). */
  context?: ContextBudget;
  /**
   * The run's receipt: a reply that is a final answer (no tool calls) has its claims checked against it here,
   * its warnings returned as `ModelReply.claimWarnings`, so the run needs no claim-check step of its own.
   */
  claimCheck?: { receipt: Receipt };
}

export interface CallModelDeps {
  endpoints: ModelEndpoints;
  /** Where the streamed text goes for live clients (the run's event stream). */
  store: AgentStore;
  contracts: ReadonlyMap<string, ToolContract>;
  transcripts: TranscriptChain;
  /** Asks a run for its transcript when a link is missing from the store. */
  client: Client;
  /** An MCP tool the worker offers now, by `server__tool` name (MCP tools are the worker's, not the contracts'). */
  mcpTool?: (name: string) => { name: string; description: string; inputSchema: Record<string, unknown> } | undefined;
  /** The worker's own and MCP tools now, as runs learn them (`mcpTools`). */
  workerCatalog?: () => readonly ToolDefinition[];
  /** The digest of what the worker offers (its publication in the store). */
  offerDigest?: string;
  /** The claim check (`check-claims.ts`), for calls that ask for it (`claimCheck`). */
  checkClaims?: ClaimChecker;
}

export function createCallModel({ endpoints, contracts, transcripts, client, store, mcpTool, workerCatalog, offerDigest, checkClaims }: CallModelDeps) {
  const toolSchemas = new Map<string, ChatCompletionTool>();
  for (const contract of contracts.values()) {
    toolSchemas.set(contract.name, {
      type: 'function',
      function: {
        name: contract.name,
        description: contract.description,
        parameters: z.toJSONSchema(contract.input),
      },
    });
  }

  // What the claim check reads of the built-in tools: the same for every final answer.
  const builtinCheckTools = toolContracts.map((c) => [c.name, claimCheckTool(c)] as const);

  return async function callModel(input: CallModelInput): Promise<ModelReply | OverBudget> {
    const ctx = Context.current();
    // The model's provider and price first: a model with neither fails here, before anything is sent.
    const route = routeFor(input.model, endpoints);
    const model = clientFor(route);
    const tools = input.toolNames.flatMap((name) => {
      const schema = toolSchemas.get(name) ?? mcpSchema(name, mcpTool);
      // An MCP tool its server no longer lists is left out (a call to it is told it is gone).
      if (schema === null) return [];
      if (!schema) throw ApplicationFailure.nonRetryable(`The worker has no tool "${name}".`, FailureType.toolNotImplemented);
      return [schema];
    });
    // The worker's own and MCP tools the workflow can read (the others it would refuse, so the model is not offered them).
    const mcpTools = input.withMcpTools ? (workerCatalog?.() ?? []).filter((d) => !input.toolNames.includes(d.name) && readableDefinition(d)) : [];
    for (const definition of mcpTools) tools.push({ type: 'function', function: { name: definition.name, description: definition.description, parameters: definition.inputSchema } });
    const messages = await orStoreFailure(fullTranscript(input, transcripts, client));
    const request = {
      model: route.model,
      messages: messages.map(toOpenAIMessage),
      ...(tools.length ? { tools } : {}),
    };
    // Over the run's budget: not sent; the workflow compacts first.
    const over = await overBudget(input.context, request, input.transcript.append.map(toOpenAIMessage));
    if (over) return over;
    // A local activity sends no heartbeats (Temporal cannot reach it while it holds its workflow's task): it
    // stops by itself on the run's cancel or deadline. A regular one beats, and stops on an announced stop.
    const local = ctx.info.isLocal;
    const interruptions = local
      ? await orStoreFailure(LocalCallInterruptions.listen({ store, cancelRequested: () => cancelRequested(client, input.runId), runId: input.runId, wallDeadlineMs: input.wallDeadlineMs }))
      : null;
    const heartbeats = local ? null : await orStoreFailure(ActivityHeartbeats.start(ctx, store, input.runId));
    const signal = heartbeats?.signal ?? AbortSignal.any([ctx.cancellationSignal, interruptions!.signal]);
    const started = performance.now();
    const deltas = new ModelDeltas(store, input.runId, `${ctx.info.activityId}.${ctx.info.attempt}`);
    try {
      const onText = (text: string) => deltas.push(text);
      const reply = checkedReply(
        route,
        route.kind === 'responses'
          ? await responsesCall(model, { model: route.model, messages, ...(tools.length ? { tools } : {}) }, input.stream, signal, onText)
          : input.stream
            ? await streamedChat(model, request, signal, onText)
            : await unary(model, request, signal),
      );
      checkReplySize(reply.message);
      // Reasoning items of earlier Responses turns that this chat model was not sent: the run's trace notes it.
      const dropped = route.kind === 'chat' ? reasoningItemCount(messages) : 0;
      const modelMs = Math.round(performance.now() - started);
      const claimWarnings = input.claimCheck && checkClaims && !reply.message.tool_calls?.length ? answerWarnings(checkClaims, reply.message.content ?? '', input.claimCheck.receipt, checkTools(input.toolNames, mcpTools)) : undefined;
      return { ...reply, ...(dropped ? { droppedReasoningItems: dropped } : {}), modelMs, ...(mcpTools.length ? { mcpTools } : {}), ...(input.withOfferDigest && offerDigest ? { offerDigest } : {}), price: route.price, ...(claimWarnings ? { claimWarnings } : {}) };
    } catch (error) {
      // Stopped by the announced stop: the activity ends cancelled once Temporal cancels it too.
      if (heartbeats?.signal.aborted) await heartbeats.untilTemporalCancels('The model call');
      throw (!ctx.cancellationSignal.aborted && interruptions?.failure()) || (await contextTooLongFailure(error, request)) || toActivityFailure(error, ctx.cancellationSignal, route);
    } finally {
      interruptions?.close();
      heartbeats?.close();
      await deltas.close();
    }
  };

  /** The tools the check knows, as the run's own check would: every built-in one, and those the run offered (its MCP tools as the workflow reads them). */
  function checkTools(toolNames: readonly string[], offeredNow: readonly ToolDefinition[]): ClaimCheckTool[] {
    const byName = new Map(builtinCheckTools);
    const defined = (name: string) => {
      const definition = workerCatalog?.().find((d) => d.name === name);
      return definition ? readableContract(definition) : null;
    };
    for (const name of toolNames) {
      const contract = contracts.get(name) ?? defined(name);
      if (contract) byName.set(name, claimCheckTool(contract));
    }
    for (const definition of offeredNow) {
      const contract = readableContract(definition);
      if (contract) byName.set(definition.name, claimCheckTool(contract));
    }
    return [...byName.values()];
  }
}

/** The answer's warnings; none (the run checks it itself) when the check cannot run here. */
function answerWarnings(check: ClaimChecker, answer: string, receipt: Receipt, tools: ClaimCheckTool[]): ClaimWarning[] | undefined {
  try {
    return check({ answer, receipt, tools });
  } catch {
    return undefined;
  }
}

async function cancelRequested(client: Client, runId: string): Promise<boolean> {
  const { raw } = await client.workflow.getHandle(runId).describe();
  return raw.workflowExtendedInfo?.cancelRequested === true;
}

/** An MCP tool's schema as the server gave it; null when its server no longer lists it; undefined when it is not an MCP tool. */
function mcpSchema(name: string, mcpTool: CallModelDeps['mcpTool']): ChatCompletionTool | null | undefined {
  if (!isMcpToolName(name)) return undefined;
  const definition = mcpTool?.(name);
  if (!definition) return null;
  return { type: 'function', function: { name: definition.name, description: definition.description, parameters: definition.inputSchema } };
}

async function fullTranscript(input: CallModelInput, transcripts: TranscriptChain, client: Client): Promise<ChatMessage[]> {
  const { prev, append, head } = input.transcript;
  await transcripts.append(prev, append, head);
  try {
    return await transcripts.load(head);
  } catch (error) {
    if (!(error instanceof TranscriptMissingError)) throw error;
    // A link written before the store was shared (or lost with it): the run holds its current execution's part.
    const context = await client.workflow.getHandle(input.runId).query(modelContextQuery);
    try {
      return (await transcripts.load(context.base)).concat(context.messages);
    } catch (missing) {
      if (!(missing instanceof TranscriptMissingError)) throw missing;
      throw ApplicationFailure.retryable(`${missing.message}: every worker must use the same store (AGENT_STORE_URL).`, missing.code);
    }
  }
}

/** A reply is stored in history and sent back with every later call: a huge one is refused, not kept. */
function checkReplySize(message: ModelReply['message']): void {
  const chars = JSON.stringify(message).length;
  if (chars > MAX_REPLY_CHARS) {
    throw ApplicationFailure.nonRetryable(
      `The model's reply has ${formatCount(chars)} characters (text and tool-call arguments); the harness accepts at most ${formatCount(MAX_REPLY_CHARS)}.`,
      FailureType.modelReplyTooLarge,
    );
  }
}

type Request = ChatRequest;

async function unary(client: OpenAI, request: Request, signal: AbortSignal): Promise<RawReply> {
  const completion = await client.chat.completions.create({ ...request, stream: false }, { signal });
  const choice = completion.choices[0];
  if (!choice) throw ApplicationFailure.nonRetryable('The model returned no choices.', FailureType.modelRequestRejected);
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).flatMap((c) =>
    c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
  );
  return {
    message: { role: 'assistant', content: choice.message.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
    usage: usageOf(completion.usage),
    finishReason: choice.finish_reason,
    ...(choice.message.refusal ? { refusal: choice.message.refusal } : {}),
  };
}

export function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.tool_calls?.length
          ? { tool_calls: message.tool_calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
  }
}

/** Maps provider errors to Temporal failures (`src/providers/model-errors.ts`): 408/409/429/5xx and network errors retry, other 4xx do not. */
export function toActivityFailure(error: unknown, signal: AbortSignal, route: ModelRoute): unknown {
  if (signal.aborted) return new CancelledFailure('model call cancelled');
  return modelFailure(error, route);
}
