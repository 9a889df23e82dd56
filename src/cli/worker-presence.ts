/**
 * Whether any worker polls a task queue now (Temporal's own list of pollers of its workflow tasks): `start`
 * says so when none does, since the run then waits without a word.
 */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

const { TaskQueueKind, TaskQueueType } = proto.temporal.api.enums.v1;

/** The identities of the workers that polled the queue's workflow tasks lately (Temporal keeps a few minutes' worth). */
export async function workflowPollers(client: Client, taskQueue: string): Promise<string[]> {
  const { pollers } = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  // A poll lasts up to a minute; a poller not seen for longer has stopped.
  const since = Date.now() - 90_000;
  return (pollers ?? []).filter((p) => seconds(p.lastAccessTime) * 1000 > since).map((p) => p.identity ?? '?');
}

function seconds(time: { seconds?: { toNumber(): number } | number | null } | null | undefined): number {
  const value = time?.seconds;
  return typeof value === 'number' ? value : (value?.toNumber() ?? 0);
}
