import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';
import { firstTime, goalOf } from '../helpers/latch.ts';

/**
 * Twelve turns: eleven reads, one file per turn (days/day-01.txt … day-11.txt), then an answer that
 * quotes every tool result it has in its context. Each turn first checks that the context holds every
 * earlier result, in order: if one is missing it answers at once, saying which turn lost what.
 *
 * The 8th model call (turn 7, after two continue-as-news at 3 turns each) is held the first time a run
 * asks for it, until its worker goes away (the test SIGKILLs it there); the retry answers at once.
 */
export const DAYS = 11;
export const HELD_TURN = 7;
const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'heron', 'indigo', 'juniper', 'kestrel'];

export const dayFile = (n: number) => `days/day-${String(n).padStart(2, '0')}.txt`;
export const dayText = (n: number) => `day ${n}: the word is ${WORDS[n - 1]}`;
/** The workspace files the scenario reads (every host that runs it needs them). */
export const dayFiles = (): Record<string, string> => Object.fromEntries(Array.from({ length: DAYS }, (_, i) => [dayFile(i + 1), dayText(i + 1)]));
/** The answer when nothing was lost. */
export const expectedAnswer = () => `saw: ${Array.from({ length: DAYS }, (_, i) => dayText(i + 1)).join(' | ')}`;

const held = new Set<string>();

const twelveReads: Scenario = (turn, messages) => {
  const results = messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
  for (let n = 1; n <= turn; n++) {
    if (results[n - 1] !== dayText(n)) return text(`lost context at turn ${turn}: result ${n} is ${JSON.stringify(results[n - 1] ?? null)}`);
  }
  if (results.length !== turn) return text(`lost context at turn ${turn}: ${results.length} tool results`);
  if (turn >= DAYS) return text(`saw: ${results.join(' | ')}`);
  const reply = call(`r${turn + 1}`, 'read_file', { path: dayFile(turn + 1) });
  // The server stops waiting when the client goes away: a killed worker ends the hold.
  return turn === HELD_TURN && firstTime(held, goalOf(messages)) ? { ...reply, delayMs: 600_000 } : reply;
};
export default twelveReads;
