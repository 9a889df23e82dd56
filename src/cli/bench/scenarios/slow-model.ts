import type { Scenario } from '../../../scripted-model/scenario.ts';

/** For the bench: a model that takes as long as the goal says ("answer after 2000 ms"; default 30 s) before its first byte. */
const slowModel: Scenario = (_turn, messages) => {
  const goal = messages.find((m) => m.role === 'user')?.content ?? '';
  return { content: 'done', delayMs: Number(/after (\d+) ms/.exec(goal)?.[1] ?? 30_000) };
};

export default slowModel;
