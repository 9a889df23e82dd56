/**
 * `schedule create|list|describe|pause|unpause|trigger|delete`: scheduled agents (Temporal Schedules) on
 * this CLI's task queue, through `AgentSchedules`.
 */
import path from 'node:path';
import { AgentSchedules, type AgentSchedule } from '../client/schedules.ts';
import { AGENT, limitsOption, NO_WORKER, numberOption, UsageError, withRuntime, type Invocation } from './context.ts';
import { table } from './table.ts';

export const SCHEDULE_USAGE = `schedule create <id> "<goal>"   a scheduled agent: --cron "0 7 * * 1-5" (several: ";"-separated) or --every 1h,
                             [--time-zone Europe/Berlin] [--overlap skip|buffer_one|buffer_all|cancel_other|terminate_other|allow_all]
                             [--catchup-window 10m] [--jitter 1m] [--daily-budget 0.50] [--paused] [--reason note], and the run options
                             (--model or --agent, --max-turns, --max-budget, --max-wall-ms, --tools, --workspace)
  schedule list | describe <id> | pause <id> [--reason] | unpause <id> | trigger <id> | delete <id>`;

const SUBCOMMANDS = ['create', 'list', 'describe', 'pause', 'unpause', 'trigger', 'delete'] as const;

export function scheduleCommand(inv: Invocation): Promise<number> {
  const [sub, id, ...goalWords] = inv.rest;
  if (!sub || !(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`"schedule" needs one of ${SUBCOMMANDS.join(', ')}:\n  ${SCHEDULE_USAGE}`);
  if (sub !== 'list' && !id) throw new UsageError(`"schedule ${sub}" needs a schedule id: ${AGENT} schedule ${sub} <id>`);
  const { values } = inv;
  const limits = limitsOption(values);
  const dailyBudgetUsd = numberOption(values, 'daily-budget', 'amount');
  return withRuntime(NO_WORKER, async (rt) => {
    const schedules = new AgentSchedules(rt.agents);
    switch (sub) {
      case 'create': {
        const goal = goalWords.join(' ');
        if (!goal) throw new UsageError(`"schedule create" needs a goal: ${AGENT} schedule create ${id} "what to do" --cron "0 7 * * *"`);
        const created = await schedules.create({
          id,
          run: {
            goal,
            ...(values.agent ? { agent: values.agent } : { model: values.model ?? process.env.MODEL ?? 'scripted:plan' }),
            ...(values.agent && values.model ? { model: values.model } : {}),
            ...(Object.keys(limits).length ? { limits } : {}),
            ...(values.workspace ? { workspace: path.resolve(values.workspace) } : {}),
            ...(values.tools ? { tools: values.tools.split(',').map((t) => t.trim()) } : {}),
          },
          ...(values.cron ? { cron: values.cron.split(';').map((c) => c.trim()).filter(Boolean) } : {}),
          ...(values.every ? { every: durationOption(values.every) } : {}),
          ...(values['time-zone'] ? { timeZone: values['time-zone'] } : {}),
          ...(values.overlap ? { overlap: values.overlap } : {}),
          ...(values['catchup-window'] ? { catchupWindow: durationOption(values['catchup-window']) } : {}),
          ...(values.jitter ? { jitter: durationOption(values.jitter) } : {}),
          ...(dailyBudgetUsd !== undefined ? { dailyBudgetUsd } : {}),
          ...(values.paused ? { paused: true } : {}),
          ...(values.reason ? { note: values.reason } : {}),
        });
        console.log(`schedule ${created.id} created${created.paused ? ' (paused)' : ''}; next runs: ${created.nextRunTimes.slice(0, 3).join(', ') || '-'}`);
        return 0;
      }
      case 'list': {
        const all = await schedules.list();
        console.log(
          table(
            ['schedule', 'state', 'when', 'time zone', 'next run', 'last run'],
            all.map((s) => [s.id, s.paused ? 'paused' : 'active', when(s), s.timeZone, s.nextRunTimes[0] ?? '-', s.recentRuns.at(-1)?.runId ?? '-']),
          ),
        );
        return 0;
      }
      case 'describe':
        console.log(describeText(await schedules.describe(id!)));
        return 0;
      case 'pause': {
        const paused = await schedules.pause(id!, values.reason ?? 'paused from the command line');
        console.log(`schedule ${paused.id} paused: ${paused.note}`);
        return 0;
      }
      case 'unpause':
        await schedules.unpause(id!, values.reason ?? 'unpaused from the command line');
        console.log(`schedule ${id} active`);
        return 0;
      case 'trigger':
        await schedules.trigger(id!);
        console.log(`schedule ${id} triggered (under its overlap policy: skipped if its last run has not ended)`);
        return 0;
      case 'delete':
        await schedules.delete(id!);
        console.log(`schedule ${id} deleted (runs it started go on)`);
        return 0;
      default:
        return 2;
    }
  });
}


/** `--every 90000` is milliseconds; `--every 15m` is passed on as text. */
function durationOption(text: string): number | string {
  return /^\d+$/.test(text) ? Number(text) : text;
}

function when(s: AgentSchedule): string {
  return [...s.cron, ...s.everyMs.map((ms) => `every ${ms / 1000} s`)].join('; ');
}

function describeText(s: AgentSchedule): string {
  const rows: [string, string][] = [
    ['schedule', s.id],
    ['state', s.paused ? `paused${s.note ? ` (${s.note})` : ''}` : 'active'],
    ['goal', s.goal],
    ['model', s.model],
    ['when', when(s)],
    ['time zone', s.timeZone],
    ['overlap', s.overlap],
    ['daily budget', s.dailyBudgetUsd === undefined ? '-' : `$${s.dailyBudgetUsd} a day (${s.timeZone})`],
    ['catch-up window', s.catchupWindowMs === undefined ? '-' : `${s.catchupWindowMs / 1000} s`],
    ['jitter', s.jitterMs ? `${s.jitterMs / 1000} s` : '-'],
    ['runs started', String(s.runsStarted ?? '-')],
    ['skipped (overlap)', String(s.skippedOverlap ?? '-')],
    ['running', s.runningRunIds?.join(', ') || '-'],
    ['next runs', s.nextRunTimes.slice(0, 3).join(', ') || '-'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const recent = s.recentRuns.map((r) => `  ${r.runId}  (for ${r.scheduledAt}, started ${r.startedAt})`);
  return [...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`), 'recent runs:', ...(recent.length ? recent : ['  -'])].join('\n');
}
