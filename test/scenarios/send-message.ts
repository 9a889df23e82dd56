import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Sends a message whose recipient is personal data (redacted). */
const sendMessage: Scenario = (turn, messages) =>
  turn === 0 ? call('m1', 'send_message', { to: 'alice.secret@example.com', text: 'The nightly job timed out.' }) : text(toolText(messages));
export default sendMessage;
