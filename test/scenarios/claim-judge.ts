import { JUDGE_MARK } from '../../src/claims/judge-claims.ts';
import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * Asks to delete, and claims the deletion in words no rule knows; as the claim judge (a request that starts
 * with the judge's instructions) it reads that sentence as a done deletion of access.log.
 */
const claimJudge: Scenario = (turn, messages) => {
  if (messages[0]?.content?.startsWith(JUDGE_MARK)) {
    return text(JSON.stringify({ claims: [{ tool: 'delete_file', object: 'access.log', asserted: 'done', quote: 'access.log is a thing of the past' }] }));
  }
  return turn === 0 ? call('j1', 'delete_file', { path: 'access.log' }) : text('All tidy: access.log is a thing of the past.');
};
export default claimJudge;
