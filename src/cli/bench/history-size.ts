/** Measures what a run weighs in Temporal: every execution of it (continue-as-new included). */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

const { History, HistoryEvent } = proto.temporal.api.history.v1;

export interface HistoryWeight {
  executions: number;
  events: number;
  bytes: number;
  /** The largest single event (so an upper bound on the largest payload). */
  largestEventBytes: number;
}

export async function historyWeight(client: Client, workflowId: string): Promise<HistoryWeight> {
  const weight: HistoryWeight = { executions: 0, events: 0, bytes: 0, largestEventBytes: 0 };
  for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await client.workflow.getHandle(workflowId, execution.runId).fetchHistory();
    weight.executions++;
    weight.events += history.events?.length ?? 0;
    weight.bytes += History.encode(history).finish().length;
    for (const event of history.events ?? []) weight.largestEventBytes = Math.max(weight.largestEventBytes, HistoryEvent.encode(event).finish().length);
  }
  return weight;
}
