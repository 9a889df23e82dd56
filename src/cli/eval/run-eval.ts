/**
 * Runs eval tasks on the worker, concurrently (bounded), answering their approvals and questions as each
 * task says, and judges result and trajectory together.
 */
import type { AgentClient } from '../../client/client.ts';
import { isTerminal } from '../../client/client.ts';
import { formatReceipt } from '../../claims/format-receipt.ts';
import type { TraceLine } from '../../wire/trace-events.ts';
import type { RunStatus, StopReason } from '../../wire/types.ts';
import type { RunInput } from '../../wire/run-input.ts';
import { judge } from './judge.ts';
import type { EvalTask } from './task-file.ts';

export interface EvalOptions {
  /** Model for tasks that name none. */
  model: string;
  /** Absolute workspace for a task (give each its own copy: tasks may change files). */
  workspaceFor(task: EvalTask): string;
  readTrace(runId: string): Promise<TraceLine[]>;
  concurrency?: number;
  onTaskDone?(report: TaskReport): void;
}

export interface TaskReport {
  name: string;
  runId: string;
  status: RunStatus;
  reason: StopReason | null;
  turns: number;
  toolRuns: number;
  wallMs: number;
  costUsd: number;
  output: string | null;
  toolsRun: string[];
  resultOk: boolean;
  trajectoryOk: boolean;
  /** Every broken expectation; the first is the one the table shows. */
  broken: string[];
  /** The run's receipt, as the CLI prints it ("done: write_file notes.txt · rejected: …"). */
  receipt: string;
  /** Claims in the answer that the receipt contradicts, one line each. */
  warnings: string[];
}

export interface EvalReport {
  tasks: TaskReport[];
  totals: { tasks: number; passed: number; failed: number; turns: number; toolRuns: number; wallMs: number; costUsd: number; meanTurnMs: number; warnings: number };
}

const POLL_MS = 100;

export async function runEval(agents: AgentClient, tasks: readonly EvalTask[], options: EvalOptions): Promise<EvalReport> {
  const reports: TaskReport[] = new Array<TaskReport>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      reports[index] = await runTask(agents, tasks[index]!, options);
      options.onTaskDone?.(reports[index]);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, tasks.length)) }, worker));
  const wallMs = Math.round(performance.now() - started);
  const turns = reports.reduce((sum, r) => sum + r.turns, 0);
  const passed = reports.filter((r) => r.resultOk && r.trajectoryOk).length;
  return {
    tasks: reports,
    totals: {
      tasks: reports.length,
      passed,
      failed: reports.length - passed,
      turns,
      toolRuns: reports.reduce((sum, r) => sum + r.toolRuns, 0),
      wallMs,
      costUsd: reports.reduce((sum, r) => sum + r.costUsd, 0),
      meanTurnMs: turns ? Math.round(reports.reduce((sum, r) => sum + r.wallMs, 0) / turns) : 0,
      warnings: reports.reduce((sum, r) => sum + r.warnings.length, 0),
    },
  };
}

async function runTask(agents: AgentClient, task: EvalTask, options: EvalOptions): Promise<TaskReport> {
  // Everything that is not an eval field is run input.
  const { name, approvals, inputs, expect, model, recording: _recording, ...run } = task;
  const input: RunInput = { ...run, model: model ?? options.model, workspace: options.workspaceFor(task) };
  const started = performance.now();
  const { runId } = await agents.startRun(input);
  const unplanned: string[] = [];
  const decided = new Set<string>();
  let approvalIndex = 0;
  let inputIndex = 0;
  for (;;) {
    const state = await agents.getState(runId);
    if (isTerminal(state)) break;
    const pending = state.pending;
    if (pending && !decided.has(pending.callKey)) {
      decided.add(pending.callKey);
      if (pending.kind === 'approval') {
        const decision = approvals[approvalIndex++];
        if (decision === 'approve') await agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: 'eval' });
        else {
          if (!decision) unplanned.push(`approvals: ${pending.toolName} asked for an approval the task did not plan (rejected)`);
          await agents.reject(runId, { callKey: pending.callKey, by: 'eval', ...(decision?.reject ? { reason: decision.reject } : {}) });
        }
      } else {
        const text = inputs[inputIndex++];
        if (text === undefined) {
          unplanned.push(`inputs: the agent asked "${pending.question}" and the task has no answer for it`);
          await agents.cancelRun(runId, 'eval: no planned answer');
        } else await agents.answer(runId, text, { callKey: pending.callKey, by: 'eval' });
      }
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const result = await agents.result(runId);
  const wallMs = Math.round(performance.now() - started);
  const verdict = judge(task, result, await options.readTrace(runId), unplanned);
  return {
    name,
    runId,
    status: result.status,
    reason: result.reason,
    turns: result.totalTurns,
    toolRuns: result.toolRuns,
    wallMs,
    costUsd: result.totalCostUsd,
    output: result.output,
    toolsRun: verdict.toolsRun,
    resultOk: verdict.resultOk,
    trajectoryOk: verdict.trajectoryOk,
    broken: verdict.broken,
    receipt: formatReceipt(verdict.receipt),
    warnings: verdict.warnings.map((w) => w.message),
  };
}
