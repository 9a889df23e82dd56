import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * What an operator looks at in the Web UI: a read, a message whose recipient is redacted (approval), a
 * deletion (approval), a research question, then an answer.
 */
const operatorView: Scenario = (turn, messages) => {
  if (/research assistant/.test(messages[0]?.content ?? '')) {
    return turn === 0 ? call('r1', 'list_files') : text('Two log files: errors.log and access.log.');
  }
  if (turn === 0) return call('c1', 'read_file', { path: 'errors.log' });
  if (turn === 1) return call('c2', 'send_message', { to: 'alice.secret@example.com', text: 'The nightly job timed out.' });
  if (turn === 2) return call('c3', 'delete_file', { path: 'access.log' });
  if (turn === 3) return call('c4', 'research', { question: 'Which log files are left?' });
  return text(`Done. ${toolText(messages).split('\n').at(-1)}`);
};
export default operatorView;
