import { call, text, toolText, type Scenario } from '../scenario.ts';

/** Asks the user which file to read, then reads it and answers. */
const askUser: Scenario = (turn, messages) => {
  if (turn === 0) return call('a1', 'ask_user', { question: 'Which file should I read?' });
  const answer = messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
  if (turn === 1) return call('a2', 'read_file', { path: answer.trim() });
  return text(`The user picked ${toolText(messages).split('\n')[0]}; it says: ${messages.filter((m) => m.role === 'tool').at(-1)?.content}`);
};
export default askUser;
