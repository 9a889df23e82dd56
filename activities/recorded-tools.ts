/**
 * Tools in a replay (`model: "recorded:<file>"`). In a dry run (the default) a side-effect tool does not
 * run: it returns the result the recording holds for the same call key, which the scripted model server
 * (the only process allowed to read recordings) looks up. Read-only tools run for real, unless the replay
 * asks for every recorded result (`replay.tools: "recorded"`). A worker that does not serve scripted
 * models refuses replays, as it refuses `scripted:` models.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { ToolResultAnswer } from '../src/scripted-model/recorded.ts';
import { FailureType, toolErrorText } from '../src/wire/failures.ts';
import type { ToolOutcome } from '../src/wire/types.ts';
import type { ModelEndpoints } from './model-endpoints.ts';
import type { RunToolInput } from './run-tool.ts';

export interface RecordedToolsDeps {
  endpoints: ModelEndpoints;
  /** The tool's contract by name (the workflow's, else the worker's own tool): a tool not found counts as one with side effects. */
  contractOf: (toolName: string) => Pick<ToolContract, 'readOnly'> | undefined;
}

/** Whether a replayed call returns its recorded result instead of running. */
export function usesRecordedResult(mode: 'dry-run' | 'recorded' | 'live', contract: Pick<ToolContract, 'readOnly'> | undefined): boolean {
  if (mode === 'live') return false;
  // A tool the worker does not know is treated as having side effects: it never runs in a dry run.
  return mode === 'recorded' || !(contract?.readOnly ?? false);
}

export function withRecordedTools(runTool: (input: RunToolInput) => Promise<ToolOutcome>, { endpoints, contractOf }: RecordedToolsDeps) {
  return async function replayingRunTool(input: RunToolInput): Promise<ToolOutcome> {
    const replay = input.replay;
    if (!replay) return runTool(input);
    if (!endpoints.scriptedBaseUrl) {
      throw ApplicationFailure.nonRetryable(
        `Run ${input.runId} replays a recording (${replay.model}), and this worker does not serve scripted or recorded models.`,
        FailureType.scriptedModelRefused,
      );
    }
    if (!usesRecordedResult(replay.tools, contractOf(input.toolName))) return runTool(input);
    const started = performance.now();
    const response = await fetch(`${endpoints.scriptedBaseUrl}/_recorded/tool-result`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: replay.model, runId: input.runId, callKey: input.runKey ?? input.callKey, toolName: input.toolName }),
      signal: Context.current().cancellationSignal,
    });
    const ms = Math.round(performance.now() - started);
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      throw ApplicationFailure.nonRetryable(`The recorded result of ${input.toolName} ${input.runKey ?? input.callKey} could not be read: ${body?.error?.message ?? `HTTP ${response.status}`}`, FailureType.recordingUnreadable);
    }
    const answer = (await response.json()) as ToolResultAnswer;
    if (!answer.found) {
      // Nothing is done in a dry run, even when the recording cannot say what the call returned.
      return { ok: false, content: toolErrorText(`dry run: ${input.toolName} was not run, and ${answer.why}`), ms };
    }
    const { ok, content, kept } = answer.result;
    return { ok, content, ms, ...(kept ? { kept } : {}) };
  };
}
