import type { Scenario } from '../../../src/scripted-model/scenario.ts';

/**
 * Every reply of `scenario` after `CHAOS_MODEL_MS` (default 1 s), as a provider takes time to answer: so
 * a SIGKILLed worker has model calls in flight (the scripted server records them aborted), which is how the
 * chaos run measures recovery after a kill. Not a scenario itself: the files beside it are.
 */
export const MODEL_MS = Number(process.env.CHAOS_MODEL_MS ?? 1000);

export const withModelLatency =
  (scenario: Scenario): Scenario =>
  async (turn, messages) => {
    const reply = await scenario(turn, messages);
    return reply && !reply.delayMs ? { ...reply, delayMs: MODEL_MS } : reply;
  };
