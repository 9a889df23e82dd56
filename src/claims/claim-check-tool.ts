/** What the claim check reads of a tool's contract: for the workflow's local activity and the model call alike. */
import type { ClaimCheckTool } from '../wire/claim-check.ts';
import { paramsOf, type ClaimSpec } from './claim-specs.ts';

/** The check's view of a contract (built-in, the worker's own, an agent's or an MCP tool's). */
export function claimCheckTool(contract: { name: string; description: string; readOnly: boolean; input: unknown; claims?: ClaimSpec }): ClaimCheckTool {
  return {
    name: contract.name,
    description: contract.description,
    readOnly: contract.readOnly,
    params: paramsOf(contract.input),
    ...(contract.claims ? { claims: contract.claims } : {}),
  };
}
