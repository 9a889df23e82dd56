/**
 * Temporal histories as tests read them: every execution a task queue ran (each execution of a
 * continued-as-new run, every child), and the facts a test asserts on (which activity ran how often,
 * local-activity markers, timers, event order and times, decoded payloads).
 */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { eventually } from './eventually.ts';

export type History = proto.temporal.api.history.v1.IHistory;
export type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
type Payload = proto.temporal.api.common.v1.IPayload;

/** One execution's history, and how it relates to the others. */
export interface ExecutionHistory {
  workflowId: string;
  runId: string;
  /** The execution before this one in a continued-as-new chain. */
  previousRunId: string | null;
  /** The workflow id of the parent, for a child run. */
  parentWorkflowId: string | null;
  history: History;
}

/**
 * Every execution on the task queue: those visibility lists (`TaskQueue="…"`, which includes runs
 * started by other processes), those named in `knownWorkflowIds` (waiting until visibility lists them
 * too), and, followed through the histories themselves, every execution before and after each one in a
 * continued-as-new chain and every child. Open executions are included as far as they got.
 */
export async function collectHistories(temporal: Client, taskQueue: string, knownWorkflowIds: Iterable<string> = []): Promise<ExecutionHistory[]> {
  const known = [...knownWorkflowIds];
  const listed = await eventually(async () => {
    const found: { workflowId: string; runId: string }[] = [];
    for await (const info of temporal.workflow.list({ query: `TaskQueue="${taskQueue}"` })) found.push({ workflowId: info.workflowId, runId: info.runId });
    const ids = new Set(found.map((e) => e.workflowId));
    return known.every((id) => ids.has(id)) ? found : undefined;
  }, `visibility to list every run started on ${taskQueue}`);

  const collected = new Map<string, ExecutionHistory>();
  const queue: { workflowId: string; runId: string }[] = [...listed];
  while (queue.length) {
    const next = queue.shift()!;
    if (collected.has(next.runId)) continue;
    const history = await temporal.workflow.getHandle(next.workflowId, next.runId).fetchHistory();
    const events = history.events ?? [];
    const started = events[0]?.workflowExecutionStartedEventAttributes;
    if (!started) throw new Error(`history of ${next.workflowId}/${next.runId} does not begin with its start`);
    const entry: ExecutionHistory = {
      workflowId: next.workflowId,
      runId: next.runId,
      previousRunId: started.continuedExecutionRunId || null,
      parentWorkflowId: started.parentWorkflowExecution?.workflowId || null,
      history,
    };
    collected.set(next.runId, entry);
    if (entry.previousRunId) queue.push({ workflowId: next.workflowId, runId: entry.previousRunId });
    for (const event of events) {
      const newRunId = event.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
      if (newRunId) queue.push({ workflowId: next.workflowId, runId: newRunId });
      const child = event.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
      if (child?.workflowId && child.runId) queue.push({ workflowId: child.workflowId, runId: child.runId });
    }
  }
  return orderExecutions([...collected.values()]);
}

/** Oldest start first; within a workflow id, the continued-as-new chain in order. */
function orderExecutions(executions: ExecutionHistory[]): ExecutionHistory[] {
  return executions.sort((a, b) => startMs(a.history) - startMs(b.history) || a.workflowId.localeCompare(b.workflowId));
}

function startMs(history: History): number {
  return eventMs(history.events![0]!);
}

/** The executions of one run, in order: first to last of its continued-as-new chain. */
export function executionsOf(all: readonly ExecutionHistory[], workflowId: string): ExecutionHistory[] {
  const mine = all.filter((e) => e.workflowId === workflowId);
  const ordered: ExecutionHistory[] = [];
  let current = mine.find((e) => !e.previousRunId || !mine.some((m) => m.runId === e.previousRunId));
  while (current) {
    ordered.push(current);
    const runId: string = current.runId;
    current = mine.find((e) => e.previousRunId === runId);
  }
  return ordered;
}

// ---- reading one history ----

/** The event's type, e.g. `ActivityTaskScheduled`, from the attributes it carries. */
export function eventType(event: HistoryEvent): string {
  const key = Object.keys(event).find((k) => k.endsWith('EventAttributes') && (event as Record<string, unknown>)[k]);
  if (!key) throw new Error(`event ${String(event.eventId)} has no attributes`);
  return key.charAt(0).toUpperCase() + key.slice(1, -'EventAttributes'.length);
}

export function eventTypes(history: History): string[] {
  return (history.events ?? []).map(eventType);
}

export function eventId(event: HistoryEvent): number {
  return Number(event.eventId);
}

/** The server's time of the event, in ms since the epoch. */
export function eventMs(event: HistoryEvent): number {
  const t = event.eventTime;
  return Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
}

/** A duration field (`nextRetryDelay`, …) in ms. */
export function durationMs(d: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(d?.seconds ?? 0) * 1000 + Math.floor((d?.nanos ?? 0) / 1e6);
}

/** A (not encrypted) payload's JSON value. */
export function payloadJson(payload: Payload | null | undefined): unknown {
  if (!payload?.data) return undefined;
  const encoding = Buffer.from(payload.metadata?.encoding ?? []).toString();
  if (encoding !== 'json/plain') throw new Error(`payload encoded as ${encoding || '(none)'}, not json/plain`);
  return JSON.parse(Buffer.from(payload.data).toString('utf8'));
}

/** One non-local activity: where it was scheduled and how it ended. */
export interface ActivityRecord {
  type: string;
  scheduled: HistoryEvent;
  input: unknown;
  /** The attempt that ended it (history keeps the last attempt's start only). */
  attempt: number | null;
  started: HistoryEvent | null;
  /** The failure that made the server retry it, on the attempt that ended it. */
  lastFailure: proto.temporal.api.failure.v1.IFailure | null;
  /** Completed, Failed, TimedOut or Canceled; null while it runs. */
  closed: HistoryEvent | null;
  closedAs: string | null;
  cancelRequested: HistoryEvent | null;
}

/** What a completed activity returned (its first payload, as JSON); undefined while it runs or if it did not complete. */
export function activityResult(record: ActivityRecord): unknown {
  const payload = record.closed?.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
  return payload ? payloadJsonOrRaw(payload) : undefined;
}

export function activities(history: History, type?: string): ActivityRecord[] {
  const events = history.events ?? [];
  const records: ActivityRecord[] = [];
  const byScheduledId = new Map<number, ActivityRecord>();
  for (const event of events) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const record: ActivityRecord = {
        type: scheduled.activityType?.name ?? '',
        scheduled: event,
        input: scheduled.input?.payloads?.[0] ? payloadJsonOrRaw(scheduled.input.payloads[0]) : undefined,
        attempt: null,
        started: null,
        lastFailure: null,
        closed: null,
        closedAs: null,
        cancelRequested: null,
      };
      records.push(record);
      byScheduledId.set(eventId(event), record);
      continue;
    }
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const record = byScheduledId.get(Number(started.scheduledEventId))!;
      record.started = event;
      record.attempt = started.attempt ?? null;
      record.lastFailure = started.lastFailure ?? null;
      continue;
    }
    const cancelRequested = event.activityTaskCancelRequestedEventAttributes;
    if (cancelRequested) {
      byScheduledId.get(Number(cancelRequested.scheduledEventId))!.cancelRequested = event;
      continue;
    }
    for (const [key, as] of [
      ['activityTaskCompletedEventAttributes', 'Completed'],
      ['activityTaskFailedEventAttributes', 'Failed'],
      ['activityTaskTimedOutEventAttributes', 'TimedOut'],
      ['activityTaskCanceledEventAttributes', 'Canceled'],
    ] as const) {
      const closed = event[key];
      if (closed) {
        const record = byScheduledId.get(Number(closed.scheduledEventId))!;
        record.closed = event;
        record.closedAs = as;
      }
    }
  }
  return type ? records.filter((r) => r.type === type) : records;
}

function payloadJsonOrRaw(payload: Payload): unknown {
  try {
    return payloadJson(payload);
  } catch {
    return payload;
  }
}

/** A local activity as its marker records it. */
export interface LocalActivityMarker {
  event: HistoryEvent;
  type: string;
  attempt: number;
  result: unknown;
}

export function localActivities(history: History, type?: string): LocalActivityMarker[] {
  const markers: LocalActivityMarker[] = [];
  for (const event of history.events ?? []) {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') continue;
    const data = payloadJson(marker.details?.data?.payloads?.[0]) as { activity_type: string; attempt: number };
    const result = marker.details?.result?.payloads?.[0];
    markers.push({ event, type: data.activity_type, attempt: data.attempt, result: result ? payloadJsonOrRaw(result) : undefined });
  }
  return type ? markers.filter((m) => m.type === type) : markers;
}

/** Timers: started, and fired or cancelled. */
export function timers(history: History): { started: HistoryEvent; timeoutMs: number; fired: HistoryEvent | null }[] {
  const events = history.events ?? [];
  return events
    .filter((e) => e.timerStartedEventAttributes)
    .map((started) => ({
      started,
      timeoutMs: durationMs(started.timerStartedEventAttributes!.startToFireTimeout),
      fired: events.find((e) => Number(e.timerFiredEventAttributes?.startedEventId) === eventId(started)) ?? null,
    }));
}

/** The identity of the worker that started each workflow task, in order. */
export function workflowTaskWorkers(history: History): { started: HistoryEvent; identity: string }[] {
  return (history.events ?? []).filter((e) => e.workflowTaskStartedEventAttributes).map((started) => ({ started, identity: started.workflowTaskStartedEventAttributes!.identity ?? '' }));
}

/** Every payload anywhere in the history (inputs, results, memos, markers, search attributes, …), with where it is. */
export function allPayloads(value: unknown, path = '', found: { path: string; payload: Payload }[] = []): { path: string; payload: Payload }[] {
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return found;
  if (Array.isArray(value)) {
    value.forEach((v, i) => allPayloads(v, `${path}[${i}]`, found));
    return found;
  }
  const object = value as Record<string, unknown>;
  if ('data' in object && ArrayBuffer.isView(object.data) && 'metadata' in object) found.push({ path, payload: object });
  for (const [k, v] of Object.entries(object)) allPayloads(v, path ? `${path}.${k}` : k, found);
  return found;
}

/** The history as the server stores it: every field's bytes, payload data undecoded. */
export function historyBytes(history: History): Buffer {
  return Buffer.from(proto.temporal.api.history.v1.History.encode(history).finish());
}

/** Waits until the run's history satisfies `check` (for open runs: history as it is now). */
export async function waitForHistory(temporal: Client, workflowId: string, check: (history: History) => boolean, what: string, timeoutMs?: number): Promise<History> {
  return eventually(async () => {
    const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
    return check(history) ? history : undefined;
  }, what, timeoutMs);
}
