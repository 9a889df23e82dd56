/**
 * The final answer's claims against the receipt, checked by a local activity (activities/check-claims.ts):
 * the check reads English with a lexicon too large to load in every run's sandbox. A run recorded before
 * this change checked its answer inside the workflow; its replay records no warnings (they were only ever
 * shown from the state and the trace, not replayed commands).
 */
import * as wf from '@temporalio/workflow';
import type { AgentActivities } from '../activities/index.ts';
import { paramsOf } from '../src/claims/claim-specs.ts';
import { contractsByName } from '../src/tools/contracts.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { ClaimCheckTool } from '../src/wire/claim-check.ts';
import type { ClaimWarning, Receipt } from '../src/wire/receipt.ts';
import type { Changes } from './changes.ts';
import type { Stop } from './stop.ts';

const { checkAnswerClaims } = wf.proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

/** The warnings for a final answer (none for any other stop); the check is not cancelled with the run. */
export async function claimWarnings(stop: Stop, receipt: Receipt, offered: ReadonlyMap<string, ToolContract>, changes: Changes): Promise<ClaimWarning[]> {
  if (stop.reason !== 'final_answer' || !changes.has('claims-in-activity')) return [];
  // Every built-in tool, offered or not ("I emailed the team" is a claim either way), and the run's others.
  const tools: ClaimCheckTool[] = [...new Map([...contractsByName, ...offered]).values()].map((c) => ({
    name: c.name,
    description: c.description,
    readOnly: c.readOnly,
    params: paramsOf(c.input),
    ...(c.claims ? { claims: c.claims } : {}),
  }));
  try {
    return await wf.CancellationScope.nonCancellable(() => checkAnswerClaims({ answer: stop.output, receipt, tools }));
  } catch (error) {
    // A check that cannot run leaves the answer unchecked, not the run failed.
    wf.log.warn('claim check failed; the answer is unchecked', { error: String(error) });
    return [];
  }
}
