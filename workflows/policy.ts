/**
 * The risk policy, decided outside the model: the model cannot change a tool's risk, and nothing it
 * says changes what this returns.
 */
import type { Risk } from '../src/wire/types.ts';
import type { RunPolicy } from '../src/wire/run-input.ts';

export type PolicyDecision =
  | { action: 'run' }
  | { action: 'ask'; why: string }
  | { action: 'deny'; why: string };

export const DEFAULT_MEDIUM_QUOTA = 5;

export function decide(tool: { name: string; risk: Risk }, mediumRunsSoFar: number, policy: RunPolicy = {}): PolicyDecision {
  if (policy.requireApproval?.includes(tool.name)) return { action: 'ask', why: 'the run requires approval for this tool' };
  switch (tool.risk) {
    case 'low':
      return { action: 'run' };
    case 'medium': {
      const quota = policy.mediumQuota ?? DEFAULT_MEDIUM_QUOTA;
      return mediumRunsSoFar < quota ? { action: 'run' } : { action: 'ask', why: `the run's quota of ${quota} medium-risk tool runs is used up` };
    }
    case 'high':
      return { action: 'ask', why: 'high-risk tools need a human decision' };
    case 'extreme':
      return policy.allowExtreme?.includes(tool.name)
        ? { action: 'run' }
        : { action: 'deny', why: `${tool.name} is an extreme-risk tool and this run's configuration does not allow it` };
  }
}
