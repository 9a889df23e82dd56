/**
 * Replaying a recorded run (`model: "recorded:<file>[#lenient]"`): the model's name, and what the tool
 * activity is told, so that a replay never deletes or sends anything unless asked to. Sandbox-safe: plain
 * data and pure helpers.
 */
import type { RunInput } from './run-input.ts';

/** Model names that replay a recording through the scripted model server (a test and demo facility). */
export const RECORDED_MODEL_PREFIX = 'recorded:';

/** `strict`: a request other than the recorded one is an error; `lenient`: the replay goes on, the difference kept. */
export type ReplayMode = 'strict' | 'lenient';

/** `recorded:<file>[#strict|#lenient]` → the file and the mode. */
export function parseRecordedModel(model: string): { file: string; mode: ReplayMode } {
  const rest = model.slice(RECORDED_MODEL_PREFIX.length);
  const hash = rest.lastIndexOf('#');
  const suffix = hash >= 0 ? rest.slice(hash + 1) : '';
  if (suffix === 'lenient' || suffix === 'strict') return { file: rest.slice(0, hash), mode: suffix };
  return { file: rest, mode: 'strict' };
}

export function recordedModelName(file: string, mode: ReplayMode = 'strict'): string {
  return `${RECORDED_MODEL_PREFIX}${file}${mode === 'lenient' ? '#lenient' : ''}`;
}

/**
 * How a replay's tools run:
 * - `dry-run` (default): side-effect tools return the result the recording holds for the call and do nothing;
 *   read-only tools run for real against the run's workspace;
 * - `recorded`: every tool returns its recorded result (hermetic: no workspace is read);
 * - `live`: every tool runs for real.
 */
export const REPLAY_TOOL_MODES = ['dry-run', 'recorded', 'live'] as const;
export type ReplayToolMode = (typeof REPLAY_TOOL_MODES)[number];


/** What the tool activity learns of a replay: the recording (the model name) and the tool mode. */
export interface ToolReplay {
  model: string;
  tools: ReplayToolMode;
}

export function isRecordedModel(model: string): boolean {
  return model.startsWith(RECORDED_MODEL_PREFIX);
}

/** The field a replaying run adds to every tool activity's input; nothing for any other run. */
export function toolReplayOf(input: Pick<RunInput, 'replay'> & { model: string }): { replay?: ToolReplay } {
  if (!isRecordedModel(input.model)) return {};
  return { replay: { model: input.model, tools: input.replay?.tools ?? 'dry-run' } };
}
