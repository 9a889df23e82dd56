import { text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Two deletions in one reply: decided one by one, in the model's order. */
const twoDeletes: Scenario = (turn, messages) =>
  turn === 0
    ? {
        tool_calls: [
          { id: 'x1', name: 'delete_file', arguments: '{"path":"access.log"}' },
          { id: 'x2', name: 'delete_file', arguments: '{"path":"notes.txt"}' },
        ],
      }
    : text(toolText(messages));
export default twoDeletes;
