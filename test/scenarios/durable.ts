import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * Five turns touching every kind of step: a quick read-only tool, a slow model reply, a medium-risk
 * write, a long tool with progress, an approval for a deletion, then an answer built from every result.
 */
const durable: Scenario = (turn, messages) => {
  switch (turn) {
    case 0:
      return call('c1', 'list_files');
    case 1:
      return { ...call('c2', 'write_file', { path: 'report.txt', content: 'nightly report' }), delayMs: 1500 };
    case 2:
      return call('c3', 'scan_files', { files: 400, msPerFile: 5 });
    case 3:
      return call('c4', 'delete_file', { path: 'access.log' });
    default:
      return text(`done | ${toolText(messages).split('\n').filter((l) => !/ bytes\)$|\/$/.test(l)).join(' | ')}`);
  }
};
export default durable;
