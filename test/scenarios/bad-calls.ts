import { toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Sends broken JSON, an unknown tool and schema-violating arguments, then reports the errors it was told. */
const badCalls: Scenario = (turn, messages) => {
  if (turn === 0) return { tool_calls: [{ id: 'b1', name: 'read_file', arguments: '{"path": "errors.log"' }] };
  if (turn === 1) return { tool_calls: [{ id: 'b2', name: 'delete_everything', arguments: '{}' }] };
  if (turn === 2) return { tool_calls: [{ id: 'b3', name: 'read_file', arguments: '{"path": 42}' }] };
  const errors = toolText(messages).split('\n').filter((line) => line.startsWith('Error:')).length;
  return { content: `I was told about ${errors} errors.` };
};
export default badCalls;
