/**
 * The keyless loop across processes (issue 38): a worker that plays the scripted models (`worker --scripted`),
 * and what `start` says when no worker polls the run's task queue.
 */
import { AGENT, type Invocation } from './context.ts';

/** `worker --scripted`, or AGENT_SCRIPTED_MODELS=1 (a container's command line stays the image's). */
export function servesScripted({ values }: Invocation): boolean {
  return Boolean(values.scripted) || process.env.AGENT_SCRIPTED_MODELS === '1';
}

export function noWorkerHint(taskQueue: string): string {
  return (
    `No worker polls task queue "${taskQueue}": the run waits until one does. Start one: ${AGENT} worker ` +
    `(provider models: OPENAI_API_KEY), or ${AGENT} worker --scripted to play scripted:* models with no key.`
  );
}
