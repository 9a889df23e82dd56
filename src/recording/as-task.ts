/**
 * Eval tasks that name a recording instead of a model (`{"name": …, "recording": "run.json"}`): the
 * recording gives the goal, the run input, the model (`recorded:<file>`), the approvals and answers in
 * order, and the default expectation — the recorded outcome (status, exact answer, tools run, turns, tool
 * runs, receipt). Anything the task states itself wins. `record --as-task` appends such a task.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatReceipt } from '../claims/format-receipt.ts';
import { recordedModelName } from '../wire/replay.ts';
import { loadRecording, type Recording } from './schema.ts';

/** The expectation a recording implies: its outcome, exactly. */
export function recordedExpectation(recording: Recording): Record<string, unknown> {
  const result = recording.result;
  if (!result) return {};
  const toolsRun = [...new Set(recording.trace.flatMap((l) => (l.type === 'tool_start' ? [l.toolName] : [])))];
  return {
    status: result.status,
    ...(result.output !== null ? { answer: `^${escapeRegExp(result.output)}$` } : {}),
    toolsRun,
    maxTurns: Math.max(1, result.totalTurns),
    maxToolRuns: result.toolRuns,
    receipt: formatReceipt(result.receipt),
  };
}

/**
 * A task file's raw tasks with each `recording` task filled in from its recording (paths relative to the
 * task file). Other tasks are returned as they are. Runs before the task schema checks the result.
 */
export function expandRecordedTasks(raw: unknown, baseDir: string): unknown {
  const tasks = (raw as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) return raw;
  return {
    ...(raw as object),
    tasks: tasks.map((task: unknown) => {
      if (!task || typeof task !== 'object' || typeof (task as { recording?: unknown }).recording !== 'string') return task;
      const own = task as Record<string, unknown> & { recording: string; expect?: Record<string, unknown> };
      const file = path.resolve(baseDir, own.recording);
      const recording = loadRecording(file);
      const { workspace: _workspace, model: _model, research, ...input } = recording.input;
      // A research model of its own would call a real provider: children replay from the same file.
      const { model: _researchModel, ...researchRest } = research ?? {};
      return {
        ...input,
        ...(research ? { research: researchRest } : {}),
        model: recordedModelName(file),
        approvals: recording.decisions.flatMap((d): ('approve' | { reject?: string })[] => (d.kind !== 'approval' ? [] : d.decision === 'approved' ? ['approve'] : [d.reason ? { reject: d.reason } : {}])),
        inputs: recording.decisions.flatMap((d) => (d.kind === 'answer' ? [d.text] : [])),
        ...own,
        recording: file,
        expect: { ...recordedExpectation(recording), ...own.expect },
      };
    }),
  };
}

/** Appends `{name, recording}` to a task file (made when missing); the recording's path is relative to it. */
export function appendRecordedTask(taskFile: string, recordingFile: string, recording: Recording): string {
  const tasks: { tasks: unknown[] } = existsSync(taskFile) ? (JSON.parse(readFileSync(taskFile, 'utf8')) as { tasks: unknown[] }) : { tasks: [] };
  const name = `${recording.input.goal.replace(/\s+/g, ' ').slice(0, 60)} (${recording.runId})`;
  const relative = path.relative(path.dirname(path.resolve(taskFile)), path.resolve(recordingFile));
  tasks.tasks.push({ name, recording: relative });
  writeFileSync(taskFile, JSON.stringify(tasks, null, 2) + '\n');
  return name;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
