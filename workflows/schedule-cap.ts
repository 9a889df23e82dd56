/**
 * A schedule's daily spend cap (`schedule` in the run input, set by a schedule with `dailyBudgetUsd`):
 * before a scheduled run's first model call, a local activity totals what the schedule's runs spent today
 * in its time zone (`activities/schedule-spend.ts`); at the cap the run stops at once, `interrupted` with
 * `schedule_budget`, and its trace says it was skipped. Runs without the field take no step here (no
 * command, nothing in history), so recorded histories replay as before; a continued execution does not check again.
 */
import type { ResolvedRunInput } from '../src/wire/run-input.ts';
import { scheduleSpend } from './activity-options.ts';
import type { LoopState } from './loop-state.ts';
import { interrupted, type Stop } from './stop.ts';

export async function scheduleCapStop(input: ResolvedRunInput, run: LoopState, continued: boolean): Promise<Stop | null> {
  const cap = input.schedule;
  if (!cap || continued) return null;
  const { day, spentUsd, runs } = await scheduleSpend(cap.id, cap.timeZone);
  if (spentUsd < cap.dailyBudgetUsd) return null;
  run.emit({ type: 'schedule_skipped', scheduleId: cap.id, day, spentUsd, dailyBudgetUsd: cap.dailyBudgetUsd, runs });
  return interrupted({ type: 'schedule_budget', scheduleId: cap.id, day, spentUsd, dailyBudgetUsd: cap.dailyBudgetUsd });
}
