/**
 * Records a run — finished or still going, from any host — by reading Temporal's history and the store:
 * the model's replies from the `callModel` results, the conversation from the transcript links the model
 * calls carried, tool results from the `runTool` results (or, for quick read-only tools that ran as local
 * activities, from the tool message the model was sent), decisions from the trace, and research children
 * recursively. Redacted argument fields stay redacted.
 */
import type { AgentClient } from '../client/client.ts';
import type { AgentStore } from '../store/store.ts';
import { contractsByName } from '../tools/contracts.ts';
import { redactJsonText } from '../wire/redact.ts';
import { researchCallKeys } from '../wire/run-ids.ts';
import type { TraceLine } from '../wire/trace-events.ts';
import type { ChatMessage, RunResult, ToolCall } from '../wire/types.ts';
import { readExecutions, type ExecutionFacts } from './history.ts';
import { FailureType } from '../wire/failures.ts';
import { summarisedTurns } from '../wire/compaction-text.ts';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordedDecision, type RecordedSummary, type RecordedToolResult, type RecordedTurn, type Recording } from './schema.ts';

export interface RecordDeps {
  agents: AgentClient;
  /** The trace, and the transcript links compactions wrote (their summaries). */
  store: Pick<AgentStore, 'readTrace' | 'getLink'>;
}

/** Research children deeper than this are not recorded (the harness gives children no research tool). */
const MAX_DEPTH = 4;

export async function recordRun(deps: RecordDeps, runId: string, depth = 0): Promise<Recording> {
  const executions = await readExecutions(deps.agents.temporal, runId);
  const first = executions[0]!;
  const last = executions.at(-1)!;
  const gaps: string[] = [];
  const { turns, messages } = conversation(executions, gaps);
  const trace = await deps.store.readTrace(runId);
  if (!trace.length) gaps.push(`the store holds no trace for ${runId}: decisions and the trajectory are missing`);
  const complete = last.close !== null && last.close !== 'continued_as_new';
  const result = complete ? await finalResult(deps.agents, runId, last, gaps) : null;

  const children: Recording['children'] = [];
  for (const childId of executions.flatMap((e) => e.children)) {
    const callKey = researchCallKeys(childId).at(-1)!;
    if (depth >= MAX_DEPTH) {
      gaps.push(`child ${childId} is nested deeper than ${MAX_DEPTH} levels and was not recorded`);
      continue;
    }
    children.push({ callKey, recording: await recordRun(deps, childId, depth + 1) });
  }
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    recordedAt: new Date().toISOString(),
    runId,
    executions: executions.map((e) => e.executionId),
    input: first.input,
    complete,
    turns,
    messages,
    ...(await summariesOf(deps.store, executions)),
    toolResults: toolResults(executions, messages, trace, gaps),
    decisions: decisions(executions, messages, trace),
    trace,
    result,
    children,
    gaps,
  };
}

/** The conversation: the messages every model call carried (across executions), then the last reply. */
function conversation(executions: readonly ExecutionFacts[], gaps: string[]): { turns: RecordedTurn[]; messages: ChatMessage[] } {
  const messages: ChatMessage[] = [];
  const turns: RecordedTurn[] = [];
  let lastReply: ChatMessage | null = null;
  const calls = executions.flatMap((e) => e.modelCalls);
  executions.forEach((execution, index) => {
    for (const call of execution.modelCalls) {
      messages.push(...call.input.transcript.append.map(redactMessage));
      // A call over the context budget (not sent), or refused as too long and followed by a compaction and another call, is no gap.
      const compactedAfter = call.failureType === FailureType.contextTooLong && call !== calls.at(-1);
      if (!call.reply && (call.overBudget || compactedAfter)) continue;
      if (!call.reply) {
        gaps.push(`the model call after turn ${turns.length} has no reply (${call.failure ?? 'still running'})`);
        lastReply = null;
        continue;
      }
      const reply = { content: call.reply.message.content, ...(call.reply.message.tool_calls?.length ? { tool_calls: call.reply.message.tool_calls.map(redactCall) } : {}) };
      turns.push({ turn: turns.length + 1, sent: messages.length, reply, usage: call.reply.usage, finishReason: call.reply.finishReason, execution: index });
      lastReply = { role: 'assistant', ...reply };
    }
  });
  // Every reply but the last went out again with the next call; the last one is only in its result.
  if (lastReply) messages.push(lastReply);
  return { turns, messages };
}

/** The summaries compactions made (a replay's model gives them again), from the links they wrote. */
async function summariesOf(store: RecordDeps['store'], executions: readonly ExecutionFacts[]): Promise<{ summaries?: RecordedSummary[] }> {
  const summaries: RecordedSummary[] = [];
  for (const { result } of executions.flatMap((e) => e.compactions)) {
    if (!result?.usage || !result.summarised) continue;
    const link = await store.getLink(result.head);
    const message = link?.messages.find((m) => m.role === 'user' && summarisedTurns(m.content) !== null);
    if (!message?.content) continue;
    summaries.push({ turns: summarisedTurns(message.content)!, text: message.content.slice(message.content.indexOf('\n') + 1), usage: result.usage });
  }
  return summaries.length ? { summaries } : {};
}

function redactCall(call: ToolCall): ToolCall {
  return { id: call.id, name: call.name, arguments: redactJsonText(call.arguments, contractsByName.get(call.name)?.redact ?? []) };
}

function redactMessage(message: ChatMessage): ChatMessage {
  return message.role === 'assistant' && message.tool_calls ? { ...message, tool_calls: message.tool_calls.map(redactCall) } : message;
}

/**
 * The tool message the model was sent for each call key: the n tool messages after the assistant message
 * of turn t answer calls t<t>.1 … t<t>.n, in order.
 */
export function toolMessagesByCallKey(messages: readonly ChatMessage[]): Map<string, Extract<ChatMessage, { role: 'tool' }>> {
  const byKey = new Map<string, Extract<ChatMessage, { role: 'tool' }>>();
  let turn = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    turn++;
    const calls = message.tool_calls ?? [];
    for (let n = 0; n < calls.length; n++) {
      const reply = messages[i + 1 + n];
      if (reply?.role !== 'tool') break;
      byKey.set(`t${turn}.${n + 1}`, reply);
    }
  }
  return byKey;
}

/** Results of the tool runs the trace shows: the activity's own outcome, else the tool message the model got. */
function toolResults(executions: readonly ExecutionFacts[], messages: readonly ChatMessage[], trace: readonly TraceLine[], gaps: string[]): RecordedToolResult[] {
  const fromActivities = new Map<string, RecordedToolResult>();
  for (const run of executions.flatMap((e) => e.toolRuns)) {
    // Histories before v0.7 name the run key `callKey` alone.
    const runKey = run.input.runKey ?? run.input.callKey;
    if (!run.outcome || runKey === undefined) continue;
    const { ok, content, ms, kept } = run.outcome;
    fromActivities.set(runKey, { callKey: runKey, toolName: run.input.toolName, ok, content, ms, ...(kept ? { kept } : {}), source: 'activity' });
  }
  const toolMessages = toolMessagesByCallKey(messages);
  const results: RecordedToolResult[] = [];
  const seen = new Set<string>();
  for (const line of trace) {
    if (line.type !== 'tool_result' || seen.has(line.callKey)) continue;
    seen.add(line.callKey);
    const recorded = fromActivities.get(line.callKey);
    if (recorded) {
      results.push(recorded);
      continue;
    }
    const message = toolMessages.get(line.callKey);
    if (message) results.push({ callKey: line.callKey, toolName: line.toolName, ok: line.ok, content: message.content, ms: line.ms, source: 'transcript' });
    else gaps.push(`the result of ${line.toolName} ${line.callKey} was never sent to the model and ran as a local activity: it is not in the recording`);
  }
  // Tool activities whose result the trace does not show (a trace line lost with its worker): keep them too.
  for (const [callKey, recorded] of fromActivities) if (!seen.has(callKey)) results.push(recorded);
  return results;
}

/** Approvals, rejections and answers in the order they came (the trace's order). */
function decisions(executions: readonly ExecutionFacts[], messages: readonly ChatMessage[], trace: readonly TraceLine[]): RecordedDecision[] {
  const answers = executions.flatMap((e) => e.answers);
  const toolMessages = toolMessagesByCallKey(messages);
  const why = new Map<string, string>();
  const questions = new Map<string, string>();
  const out: RecordedDecision[] = [];
  let answerIndex = 0;
  for (const line of trace) {
    if (line.type === 'approval_required') why.set(line.callKey, line.why);
    else if (line.type === 'input_required') questions.set(line.callKey, line.question);
    else if (line.type === 'approval_decided') {
      out.push({
        kind: 'approval',
        callKey: line.callKey,
        toolName: line.toolName,
        decision: line.decision,
        ...(why.has(line.callKey) ? { why: why.get(line.callKey)! } : {}),
        ...(line.reason ? { reason: line.reason } : {}),
        ...(line.by ? { by: line.by } : {}),
      });
    } else if (line.type === 'input_received') {
      // The accepted `answer` updates, in order, are the answers; the tool message is the fallback.
      const request = answers.find((a, i) => i >= answerIndex && (a.callKey === undefined || a.callKey === line.callKey));
      if (request) answerIndex = answers.indexOf(request) + 1;
      const text = request?.text ?? toolMessages.get(line.callKey)?.content ?? '';
      out.push({ kind: 'answer', callKey: line.callKey, question: questions.get(line.callKey) ?? '', text, ...(request?.by ? { by: request.by } : {}) });
    }
  }
  return out;
}

/** The run's outcome: the workflow's return value, or (cancelled, failed) what the client reads from its memo. */
async function finalResult(agents: AgentClient, runId: string, last: ExecutionFacts, gaps: string[]): Promise<RunResult | null> {
  if (last.result) return last.result;
  try {
    return await agents.result(runId);
  } catch (error) {
    gaps.push(`the run closed ${last.close ?? ''} without a result the client can read: ${(error as Error).message}`);
    return null;
  }
}
