import { text, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * Answers in JSON. The goal says how it misbehaves: "valid" answers right away, "repairable" first
 * breaks the contract then fixes it after being told, "hopeless" never gets it right.
 */
const jsonAnswer: Scenario = (turn, messages) => {
  const goal = messages.find((m) => m.role === 'user')?.content ?? '';
  const good = JSON.stringify({ file: 'errors.log', mentionsTimeout: true });
  if (/valid/.test(goal) && !/repairable|hopeless/.test(goal)) return text(good);
  if (/repairable/.test(goal)) return turn === 0 ? text('errors.log mentions a timeout') : text(good);
  return text(JSON.stringify({ file: 42 }));
};
export default jsonAnswer;
