/**
 * Replays a recording (`model: "recorded:<file>"`), possibly under another policy or other limits, answers
 * its approvals and questions as the recording says, records the replay the same way, and compares the two.
 *
 * Decisions: an approval or question the recording decided (same call key) gets the recorded decision
 * (approved, or rejected with the recorded reason; the recorded answer). One the recording does not have —
 * a tighter policy asks where the run did not — is answered by `extraApprovals` (default `approve`, so the
 * replay goes on along the recorded path and the report shows where it would have waited) and listed in
 * the report; a question with no recorded answer gets the next unused recorded answer, or cancels the replay.
 */
import { existsSync } from 'node:fs';
import type { AgentClient } from '../client/client.ts';
import { isTerminal } from '../client/client.ts';
import { contractsByName } from '../tools/contracts.ts';
import { checkWorkspace } from '../tools/workspace-roots.ts';
import { usesRecordedResult } from '../../activities/recorded-tools.ts';
import { recordedModelName, type ReplayMode, type ReplayToolMode } from '../wire/replay.ts';
import type { RunResult } from '../wire/types.ts';
import type { RunInput, RunLimits, RunPolicy } from '../wire/run-input.ts';
import { recordRun, type RecordDeps } from './record.ts';
import { compareRecordings, type ExtraDecision, type ReplayReport } from './report.ts';
import type { Recording } from './schema.ts';

export interface ReplayOptions {
  /** Absolute path of the recording file (the scripted model server reads it there). */
  file: string;
  mode?: ReplayMode;
  tools?: ReplayToolMode;
  /** Merged over the recorded policy / limits. */
  policy?: RunPolicy;
  limits?: Partial<RunLimits>;
  /** Default: the recorded workspace when it still exists and this client may use it, else the worker's. */
  workspace?: string;
  extraApprovals?: 'approve' | 'reject';
  pollMs?: number;
}

export interface ReplayOutcome {
  runId: string;
  result: RunResult;
  replay: Recording;
  report: ReplayReport;
  wallMs: number;
}

/** The run input of a replay: the recorded one, with the recorded model, the overrides and the tool mode. */
export function replayInput(recording: Recording, options: ReplayOptions, workspaceRoots: readonly string[]): RunInput {
  const { input } = recording;
  const model = recordedModelName(options.file, options.mode ?? 'strict');
  const { workspace: recordedWorkspace, research, ...rest } = input;
  const workspace = options.workspace ?? (recordedWorkspace && existsSync(recordedWorkspace) && allowed(recordedWorkspace, workspaceRoots) ? recordedWorkspace : undefined);
  // Children replay from the same file: a research model of their own would call a real provider.
  const { model: _researchModel, ...researchRest } = research ?? {};
  return {
    ...rest,
    model,
    replay: { tools: options.tools ?? 'dry-run' },
    ...(research ? { research: researchRest } : {}),
    ...(options.policy || input.policy ? { policy: { ...input.policy, ...options.policy } } : {}),
    ...(options.limits || input.limits ? { limits: { ...input.limits, ...options.limits } } : {}),
    ...(workspace ? { workspace } : {}),
  };
}

export async function replayRecording(deps: RecordDeps, recording: Recording, options: ReplayOptions): Promise<ReplayOutcome> {
  const { agents } = deps;
  const started = performance.now();
  const { runId } = await agents.startRun(replayInput(recording, options, agents.workspaceRoots));
  let ended = false;
  const result = agents.result(runId).finally(() => (ended = true));
  const extraDecisions = await answerAsRecorded(agents, runId, recording, options, { ended: () => ended, result });
  const wallMs = performance.now() - started;
  const replay = await recordRun(deps, runId);
  const mode = options.tools ?? 'dry-run';
  const notRun = replay.trace.flatMap((l) => (l.type === 'tool_start' && usesRecordedResult(mode, contractsByName.get(l.toolName)) && l.toolName !== 'research' ? [`${l.toolName} ${l.callKey}`] : []));
  const report = compareRecordings(recording, replay, { overrides: overridesText(options), mode: modeText(options), notRun, extraDecisions });
  return { runId, result: await result, replay, report, wallMs };
}

/** Answers the replay's approvals and questions as recorded until it ends; returns the ones the recording lacked. */
async function answerAsRecorded(agents: AgentClient, runId: string, recording: Recording, options: ReplayOptions, run: { ended(): boolean; result: Promise<unknown> }): Promise<ExtraDecision[]> {
  const extra: ExtraDecision[] = [];
  const decided = new Set<string>();
  const answers = recording.decisions.filter((d) => d.kind === 'answer');
  const usedAnswers = new Set<number>();
  for (;;) {
    if (run.ended()) return extra;
    const state = await agents.getState(runId);
    if (isTerminal(state)) return extra;
    const pending = state.pending;
    if (pending && !decided.has(pending.callKey)) {
      decided.add(pending.callKey);
      if (pending.kind === 'approval') {
        const recorded = recording.decisions.find((d) => d.kind === 'approval' && d.callKey === pending.callKey && d.toolName === pending.toolName);
        const decision = recorded?.kind === 'approval' ? recorded : null;
        const approve = decision ? decision.decision === 'approved' : (options.extraApprovals ?? 'approve') === 'approve';
        if (!decision) extra.push({ callKey: pending.callKey, tool: pending.toolName, why: pending.why, answered: approve ? 'approved' : 'rejected' });
        if (approve) await agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: decision?.by ?? 'replay' });
        else await agents.reject(runId, { callKey: pending.callKey, by: decision?.by ?? 'replay', ...(decision?.reason ? { reason: decision.reason } : !decision ? { reason: 'replay: the recording has no decision for this call' } : {}) });
      } else {
        let index = answers.findIndex((a, i) => !usedAnswers.has(i) && a.callKey === pending.callKey);
        if (index < 0) index = answers.findIndex((_, i) => !usedAnswers.has(i));
        const answer = answers[index];
        if (!answer) {
          extra.push({ callKey: pending.callKey, tool: 'ask_user', why: pending.question, answered: 'no recorded answer: the replay was cancelled' });
          await agents.cancelRun(runId, 'replay: the recording has no answer for this question');
        } else {
          usedAnswers.add(index);
          if (answer.callKey !== pending.callKey) extra.push({ callKey: pending.callKey, tool: 'ask_user', why: pending.question, answered: `answered with the recorded answer to ${answer.callKey}` });
          await agents.answer(runId, answer.text, { callKey: pending.callKey, by: answer.by ?? 'replay' });
        }
      }
    }
    // The next look at the run, or its end, whichever comes first.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, options.pollMs ?? 50))), run.result.catch(() => {})]);
    clearTimeout(timer);
  }
}

function allowed(workspace: string, roots: readonly string[]): boolean {
  try {
    checkWorkspace(workspace, roots);
    return true;
  } catch {
    return false;
  }
}

/** "mediumQuota 2, maxTurns 3" */
export function overridesText(options: Pick<ReplayOptions, 'policy' | 'limits'>): string {
  return [...Object.entries(options.policy ?? {}), ...Object.entries(options.limits ?? {})].map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ');
}

/** "lenient, recorded tools"; empty for a strict dry run. */
function modeText(options: Pick<ReplayOptions, 'mode' | 'tools'>): string {
  return [...(options.mode === 'lenient' ? ['lenient'] : []), ...(options.tools && options.tools !== 'dry-run' ? [`${options.tools} tools`] : [])].join(', ');
}
