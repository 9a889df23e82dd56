import { text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * A provider that reuses tool-call ids. The goal picks how: "across turns" (id `x` on every turn), "one
 * reply" (id `x` twice in one reply), "empty" (no id at all). Each deletes a.log, then b.log.
 */
const reusedIds: Scenario = (turn, messages) => {
  const goal = messages.find((m) => m.role === 'user')?.content ?? '';
  const id = goal.includes('empty') ? '' : 'x';
  const del = (file: string) => ({ id, name: 'delete_file', arguments: JSON.stringify({ path: file }) });
  if (goal.includes('one reply')) return turn === 0 ? { tool_calls: [del('a.log'), del('b.log')] } : text(toolText(messages));
  if (turn === 0) return { tool_calls: [del('a.log')] };
  if (turn === 1) return { tool_calls: [del('b.log')] };
  return text(toolText(messages));
};
export default reusedIds;
