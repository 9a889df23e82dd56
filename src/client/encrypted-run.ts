/**
 * A run whose payloads are encrypted (AGENT_PAYLOAD_KEY), read by a client without the key: its memo holds
 * markers (payload-codec.ts). Its state cannot be read; what is in clear text (the search attributes) is
 * said, with the fix.
 */
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { AGENT_COST_USD, AGENT_PENDING_TOOL, AGENT_STATUS, AGENT_TURNS } from '../wire/search-attributes.ts';
import { isEncryptedMarker, PayloadKeyError } from './payload-codec.ts';

export function requireReadableState(runId: string, description: WorkflowExecutionDescription): void {
  const encrypted = Object.values(description.memo ?? {}).find(isEncryptedMarker);
  if (!encrypted) return;
  const attributes = description.typedSearchAttributes;
  const known = [
    `status ${attributes.get(AGENT_STATUS) ?? description.status.name.toLowerCase()}`,
    ...(attributes.get(AGENT_PENDING_TOOL) ? [`waiting for approval of ${attributes.get(AGENT_PENDING_TOOL)}`] : []),
    ...(attributes.get(AGENT_TURNS) !== undefined ? [`${attributes.get(AGENT_TURNS)} turns`] : []),
    ...(attributes.get(AGENT_COST_USD) !== undefined ? [`cost $${attributes.get(AGENT_COST_USD)!.toFixed(6)}`] : []),
  ];
  throw new PayloadKeyError(
    `Run ${runId} is encrypted with AGENT_PAYLOAD_KEY (key id ${encrypted.$encrypted}), which this process does not have: ` +
      `set the key its workers use to read its state. In clear text: ${known.join(', ')}.`,
  );
}
