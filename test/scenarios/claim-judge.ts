import { JUDGE_MARK } from '../../src/claims/judge-claims.ts';
import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * Asks to delete, and claims the deletion in words no rule knows; as the claim judge (a request that starts
 * with the judge's instructions) it reads that sentence as a done deletion of access.log.
 */
const claimJudge: Scenario = (turn, messages) => {
  if (messages[0]?.content?.startsWith(JUDGE_MARK)) {
    // "(slow judge)" in the goal: the judge takes a minute, long enough to cancel the run while it works.
    const slow = messages.some((m) => m.content?.includes('(slow judge)')) ? 60_000 : undefined;
    return text(JSON.stringify({ claims: [{ tool: 'delete_file', object: 'access.log', asserted: 'done', quote: 'access.log is a thing of the past' }] }), slow);
  }
  const goal = messages.find((m) => m.role === 'user')?.content ?? '';
  return turn === 0 ? call('j1', 'delete_file', { path: 'access.log' }) : text(`All tidy: access.log is a thing of the past.${goal.includes('(slow judge)') ? ' (slow judge)' : ''}`);
};
export default claimJudge;
