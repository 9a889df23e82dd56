import { text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** The same message twice in one reply: two sends asked for, each its own call (side effects are never deduplicated). */
const args = JSON.stringify({ to: 'bob@example.com', text: 'Reminder: the release is at noon.' });
const sendTwice: Scenario = (turn, messages) =>
  turn === 0
    ? { tool_calls: [{ id: 'r1', name: 'send_message', arguments: args }, { id: 'r2', name: 'send_message', arguments: args }] }
    : text(toolText(messages));
export default sendTwice;
