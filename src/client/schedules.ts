/**
 * Scheduled agents: Temporal Schedules whose action starts an agent run on this client's task queue. Each
 * run's id says which schedule started it and for when (`schedule-<id>-<RFC 3339 time>`, Temporal appends
 * the time), and each carries the same memo, search attributes and summaries as a run started by hand, so
 * the budget and limits apply per run. Overlap defaults to skip: no new run while the last one still runs
 * or waits for a person; `trigger` follows the schedule's own overlap policy too.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError as TemporalScheduleNotFound,
  type ScheduleDescription,
  type ScheduleHandle,
  type ScheduleOverlapPolicy,
  type ScheduleSummary,
} from '@temporalio/client';
import { AGENT_WORKFLOW_TYPE } from '../wire/messages.ts';
import { DEFAULT_LIMITS } from '../wire/default-limits.ts';
import type { RunInput } from '../wire/run-input.ts';
import { runStartMetadata } from '../wire/summaries.ts';
import { checkWorkspace } from '../tools/workspace-roots.ts';
import { initialSearchAttributes, type AgentClient } from './client.ts';
import { MEMO_GOAL_CHARS, type RunMemo } from './run-list.ts';
import { durationMs, parseScheduleInput, ScheduleExistsError, ScheduleNotFoundError, type OverlapPolicy } from './schedule-input.ts';

/** The schedule's memo key naming the task queue its runs go to (`list` shows only this client's). */
const TASK_QUEUE_MEMO = 'agentTaskQueue';
const CRON_MEMO = 'cron';

/** The run-id prefix of a schedule's runs; Temporal appends `-<time>`. */
export function scheduleRunIdPrefix(scheduleId: string): string {
  return `schedule-${scheduleId}`;
}

/** How much later than it is sent the server may take a trigger (and name its run by that time). */
const TRIGGER_LATENCY_MS = 250;

/**
 * How long a trigger sent at `now` waits so that the second the server names its run by is none of the
 * schedule's other runs': the last one taken, and those about to be (a cron firing at that moment).
 */
export function triggerWaitMs(now: number, taken: number | undefined, upcoming: readonly number[]): number {
  const second = (ms: number) => Math.floor(ms / 1000);
  const busy = new Set([...(taken === undefined ? [] : [taken]), ...upcoming].map(second));
  let at = now;
  while (busy.has(second(at)) || busy.has(second(at + TRIGGER_LATENCY_MS))) at = (second(at) + 1) * 1000;
  return at - now;
}

/** A scheduled agent as `list` and `describe` show it (JSON-safe). */
export interface AgentSchedule {
  id: string;
  paused: boolean;
  note: string | null;
  goal: string;
  /** The model the run input names, or `agent:<name>`. */
  model: string;
  cron: string[];
  everyMs: number[];
  timeZone: string;
  overlap: OverlapPolicy;
  /** Its cap on spend per day (USD, a day in `timeZone`): further runs that day are skipped (`schedule_budget`). */
  dailyBudgetUsd?: number;
  /** Present in `describe` (Temporal's list does not carry it). */
  catchupWindowMs?: number;
  jitterMs?: number;
  /** The runs it started last, oldest first: run id, the time it was for, when it started. */
  recentRuns: { runId: string; scheduledAt: string; startedAt: string }[];
  /** Its runs that have not ended (running or waiting for a person). */
  runningRunIds?: string[];
  nextRunTimes: string[];
  /** Times it started a run, and times it skipped one because the last had not ended or the time was missed. */
  runsStarted?: number;
  skippedOverlap?: number;
  missedCatchupWindow?: number;
}

/** Create, list, describe, pause, unpause, trigger and delete scheduled agents of an `AgentClient`'s task queue. */
export class AgentSchedules {
  private readonly agents: AgentClient;

  constructor(agents: AgentClient) {
    this.agents = agents;
  }

  /** Creates the schedule (InvalidScheduleError, InvalidRunInputError, WorkspaceRefusedError, ScheduleExistsError). */
  async create(input: unknown): Promise<AgentSchedule> {
    const s = parseScheduleInput(input);
    // A capped schedule's runs carry the cap: each checks today's spend at its first step (`workflows/schedule-cap.ts`).
    const { schedule: _set, ...asGiven } = s.run;
    const run: RunInput = s.dailyBudgetUsd === undefined ? asGiven : { ...asGiven, schedule: { id: s.id, dailyBudgetUsd: s.dailyBudgetUsd, timeZone: s.timeZone ?? 'UTC' } };
    if (run.workspace) checkWorkspace(run.workspace, this.agents.workspaceRoots);
    const model = run.model ?? `agent:${run.agent}`;
    const memo: RunMemo = { goal: run.goal.slice(0, MEMO_GOAL_CHARS), model, limits: { ...DEFAULT_LIMITS, ...run.limits } };
    const overlap = (s.overlap ?? 'skip').toUpperCase() as ScheduleOverlapPolicy;
    const create = (searchable: boolean) =>
      this.agents.temporal.schedule.create({
        scheduleId: s.id,
        spec: {
          ...(s.cron?.length ? { cronExpressions: s.cron } : {}),
          ...(s.every !== undefined ? { intervals: [{ every: durationMs(s.every) }] } : {}),
          ...(s.timeZone ? { timezone: s.timeZone } : {}),
          ...(s.jitter !== undefined ? { jitter: durationMs(s.jitter) } : {}),
        },
        action: {
          type: 'startWorkflow',
          workflowType: AGENT_WORKFLOW_TYPE,
          workflowId: scheduleRunIdPrefix(s.id),
          taskQueue: this.agents.taskQueue,
          args: [run],
          memo: { ...memo },
          ...(searchable ? { typedSearchAttributes: initialSearchAttributes(model) } : {}),
          ...runStartMetadata(run, DEFAULT_LIMITS),
        },
        policies: { overlap, ...(s.catchupWindow !== undefined ? { catchupWindow: durationMs(s.catchupWindow) } : {}) },
        // The cron expressions as given (the server keeps them compiled into calendar specs).
        memo: { [TASK_QUEUE_MEMO]: this.agents.taskQueue, [CRON_MEMO]: s.cron ?? [] },
        state: { paused: s.paused ?? false, ...(s.note ? { note: s.note } : {}) },
      });
    try {
      await create(true);
    } catch (error) {
      if (error instanceof ScheduleAlreadyRunning) throw new ScheduleExistsError(`A schedule with id "${s.id}" exists already: delete it first, or choose another id.`);
      // A server without the agent search attributes registered: the runs start (and list) without them.
      if (!/search attribute/i.test((error as Error).message)) throw error;
      await create(false);
    }
    return this.describe(s.id);
  }

  /** This task queue's schedules. */
  async list(): Promise<AgentSchedule[]> {
    const found: AgentSchedule[] = [];
    for await (const summary of this.agents.temporal.schedule.list()) {
      if (summary.memo?.[TASK_QUEUE_MEMO] !== this.agents.taskQueue || summary.action?.type !== 'startWorkflow') continue;
      found.push(await this.describe(summary.scheduleId).catch(() => fromSummary(summary)));
    }
    return found.sort((a, b) => a.id.localeCompare(b.id));
  }

  async describe(id: string): Promise<AgentSchedule> {
    return fromDescription(await this.call(id, (h) => h.describe()));
  }

  async pause(id: string, note = 'paused by an operator'): Promise<AgentSchedule> {
    await this.call(id, (h) => h.pause(note));
    return this.describe(id);
  }

  async unpause(id: string, note = 'unpaused by an operator'): Promise<AgentSchedule> {
    await this.call(id, (h) => h.unpause(note));
    return this.describe(id);
  }

  /**
   * Takes the schedule's action now, under its own overlap policy (skipped, by default, while its last run has
   * not ended). Temporal names a scheduled run by its time to the second, and a second run under the same id
   * would share the first's trace and effect records: so a trigger in the second of the schedule's last run,
   * or of its next one (a cron firing at the moment of the trigger), waits for a free second (`triggerWaitMs`).
   */
  async trigger(id: string): Promise<void> {
    const description = await this.call(id, (h) => h.describe());
    const taken = description.info.recentActions.at(-1)?.scheduledAt.getTime();
    await sleep(triggerWaitMs(Date.now(), taken, description.info.nextActionTimes.map((t) => t.getTime())));
    await this.call(id, (h) => h.trigger(description.policies.overlap));
  }

  /** Deletes the schedule; the runs it started go on. */
  async delete(id: string): Promise<void> {
    await this.call(id, (h) => h.delete());
  }

  /** The schedule's handle, after checking that it is one of this task queue's. */
  private async call<T>(id: string, body: (handle: ScheduleHandle) => Promise<T>): Promise<T> {
    const handle = this.agents.temporal.schedule.getHandle(id);
    const notFound = () => new ScheduleNotFoundError(`No schedule "${id}" on task queue ${this.agents.taskQueue}. List them with GET /schedules or \`npm run agent -- schedule list\`.`);
    try {
      const description = await handle.describe();
      if (description.memo?.[TASK_QUEUE_MEMO] !== this.agents.taskQueue) throw notFound();
      return await body(handle);
    } catch (error) {
      if (error instanceof TemporalScheduleNotFound) throw notFound();
      throw error;
    }
  }
}

function fromDescription(d: ScheduleDescription): AgentSchedule {
  const run = (d.action.args?.[0] ?? {}) as Partial<RunInput>;
  return {
    ...common(d.scheduleId, d.state, run, d.spec, d.info, d.memo),
    overlap: (d.policies.overlap ?? 'SKIP').toLowerCase() as OverlapPolicy,
    catchupWindowMs: d.policies.catchupWindow,
    ...(d.spec.jitter ? { jitterMs: d.spec.jitter } : {}),
    runningRunIds: d.info.runningActions.map((a) => a.workflow.workflowId),
    runsStarted: d.info.numActionsTaken,
    skippedOverlap: d.info.numActionsSkippedOverlap,
    missedCatchupWindow: d.info.numActionsMissedCatchupWindow,
  };
}

function fromSummary(s: ScheduleSummary): AgentSchedule {
  return { ...common(s.scheduleId, s.state, {}, s.spec ?? {}, s.info, s.memo), overlap: 'skip' };
}

function common(
  id: string,
  state: { paused: boolean; note?: string | undefined },
  run: Partial<RunInput>,
  spec: { intervals?: { every: unknown }[]; timezone?: string | undefined },
  info: Pick<ScheduleDescription['info'], 'recentActions' | 'nextActionTimes'>,
  memo: Record<string, unknown> | undefined,
) {
  return {
    id,
    paused: state.paused,
    note: state.note || null,
    goal: run.goal ?? '',
    model: run.model ?? (run.agent ? `agent:${run.agent}` : ''),
    cron: Array.isArray(memo?.[CRON_MEMO]) ? (memo[CRON_MEMO] as string[]) : [],
    everyMs: (spec.intervals ?? []).map((i) => Number(i.every)),
    timeZone: spec.timezone || 'UTC',
    ...(run.schedule ? { dailyBudgetUsd: run.schedule.dailyBudgetUsd } : {}),
    recentRuns: info.recentActions.map((a) => ({ runId: a.action.workflow.workflowId, scheduledAt: a.scheduledAt.toISOString(), startedAt: a.takenAt.toISOString() })),
    nextRunTimes: info.nextActionTimes.map((t) => t.toISOString()),
  };
}
