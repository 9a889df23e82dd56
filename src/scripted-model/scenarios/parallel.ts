import { text, toolText, type Scenario } from '../scenario.ts';

/** Two read-only calls in one reply: they run at the same time, their results come back in this order. */
const parallel: Scenario = (turn, messages) =>
  turn === 0
    ? {
        tool_calls: [
          { id: 'p1', name: 'scan_files', arguments: JSON.stringify({ files: 100, msPerFile: 5 }) },
          { id: 'p2', name: 'scan_files', arguments: JSON.stringify({ files: 60, msPerFile: 5 }) },
        ],
      }
    : text(toolText(messages));

export default parallel;
