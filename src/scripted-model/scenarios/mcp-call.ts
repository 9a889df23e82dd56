import { text, toolText, type Scenario } from '../scenario.ts';

/**
 * Calls the MCP tools the goal names, one per turn, then answers with every tool message it got. The goal
 * is `MCP: <tool> <json args>; <tool> <json args>; …`, e.g. `MCP: test__weather {"city":"Lisbon"}`.
 */
const mcpCall: Scenario = (turn, messages) => {
  const goal = messages.find((m) => m.role === 'user')?.content ?? '';
  const calls = goal
    .replace(/^MCP:\s*/, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((step) => {
      const space = step.indexOf(' ');
      return space < 0 ? { name: step, args: '{}' } : { name: step.slice(0, space), args: step.slice(space + 1) };
    });
  const next = calls[turn];
  if (next) return { tool_calls: [{ id: `m${turn + 1}`, name: next.name, arguments: next.args }] };
  return turn === calls.length ? text(toolText(messages)) : undefined;
};
export default mcpCall;
