import { text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * One reply with two calls: a slow scan, then a second call that the run's tool-call cap (maxToolCalls: 1)
 * refuses, which stops the run while the scan is still running.
 */
const parallelStop: Scenario = (turn, messages) =>
  turn === 0
    ? {
        tool_calls: [
          { id: 's1', name: 'scan_files', arguments: JSON.stringify({ files: 200, msPerFile: 5 }) },
          { id: 's2', name: 'list_files', arguments: '{}' },
        ],
      }
    : text(toolText(messages));
export default parallelStop;
