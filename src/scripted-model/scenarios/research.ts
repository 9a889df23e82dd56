import { call, text, toolText, type Scenario } from '../scenario.ts';

/**
 * The parent hands a question to the research tool and answers from its summary; the research child
 * (recognised by its system prompt) reads errors.log and summarises it.
 */
const research: Scenario = (turn, messages) => {
  const isResearcher = /research assistant/.test(messages[0]?.content ?? '');
  if (isResearcher) {
    return turn === 0 ? call('r1', 'read_file', { path: 'errors.log' }) : text('errors.log: worker 7 timed out after 30000 ms.');
  }
  return turn === 0 ? call('q1', 'research', { question: 'Which log file mentions a timeout?' }) : text(`Research found: ${toolText(messages)}`);
};

export default research;
