/**
 * What a schedule's runs spent today (a day in the schedule's time zone), from Temporal's visibility: the
 * runs Temporal marks as the schedule's (`TemporalScheduledById`) that started since that day's midnight,
 * each at its final (else live) state's cost, else its `AgentCostUsd` search attribute. A local activity
 * at a capped scheduled run's first step (`workflows/schedule-cap.ts`); its answer is in history.
 */
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { FINAL_STATE_MEMO, LIVE_STATE_MEMO } from '../src/wire/messages.ts';
import { AGENT_COST_USD } from '../src/wire/search-attributes.ts';
import type { LiveRunState, RunState } from '../src/wire/types.ts';

export interface ScheduleSpend {
  /** The day, as `YYYY-MM-DD` in the schedule's time zone. */
  day: string;
  spentUsd: number;
  /** The schedule's other runs that started that day (executions: one whose id a later run reuses counts too). */
  runs: number;
}

export function createScheduleSpend(client: Client) {
  return async function scheduleSpend(scheduleId: string, timeZone: string): Promise<ScheduleSpend> {
    const { day, startsAt } = dayIn(timeZone, new Date());
    // This execution is left out by its Temporal run id, not its workflow id: the scheduler names a run by its
    // time to the second, so two triggers in one second give two executions (one closed) the same workflow id.
    const thisExecution = Context.current().info.workflowExecution?.runId;
    let spentUsd = 0;
    let runs = 0;
    const query = `TemporalScheduledById = "${scheduleId}" AND StartTime >= "${startsAt.toISOString()}"`;
    for await (const info of client.workflow.list({ query })) {
      if (info.runId === thisExecution) continue;
      const final = info.memo?.[FINAL_STATE_MEMO] as RunState | undefined;
      const live = info.memo?.[LIVE_STATE_MEMO] as LiveRunState | undefined;
      spentUsd += final?.totalCostUsd ?? live?.totalCostUsd ?? info.typedSearchAttributes.get(AGENT_COST_USD) ?? 0;
      runs += 1;
    }
    return { day, spentUsd, runs };
  };
}

/** The day `at` falls on in `timeZone` (`YYYY-MM-DD`) and the instant that day began there. */
export function dayIn(timeZone: string, at: Date): { day: string; startsAt: Date } {
  const wall = wallClock(timeZone, at);
  const day = `${wall.year}-${pad(wall.month)}-${pad(wall.day)}`;
  // Midnight of that day as if it were UTC, moved by the zone's offset there (asked twice: the offset may change that day).
  const midnightAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day);
  let startsAt = midnightAsUtc - offsetMs(timeZone, new Date(midnightAsUtc));
  startsAt = midnightAsUtc - offsetMs(timeZone, new Date(startsAt));
  return { day, startsAt: new Date(startsAt) };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`. */
function offsetMs(timeZone: string, at: Date): number {
  const w = wallClock(timeZone, at);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at.getTime() / 1000) * 1000;
}

function wallClock(timeZone: string, at: Date) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value);
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
