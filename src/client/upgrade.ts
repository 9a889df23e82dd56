/**
 * Moving a pinned run to another build (Worker Versioning): first replay the run's history with that
 * build's workflow code — this process's, which must be the build being rolled out — and only if the
 * replay succeeds set the run's versioning override to the build, so its next workflow task goes there.
 * A run that would not replay is refused with the first difference; it stays where it is and finishes on
 * its own build. Loads the worker's code (to replay): the root export only, not `/client`.
 */
import proto from '@temporalio/proto';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { RunNotFoundError, type AgentClient } from './client.ts';
import { runBuild, type RunBuild } from './run-build.ts';
import { workflowBundle } from '../worker/workflow-bundle.ts';
import { AgentError } from '../wire/agent-error.ts';

const { temporal } = proto;

/** The run's history does not replay on the build it was to move to: it stays on its own. */
export class RunUpgradeRefusedError extends AgentError {
  override readonly name = 'RunUpgradeRefusedError';
  readonly code = 'RunUpgradeRefused';
}

/**
 * Replays the run's current execution with this build's workflow code (or `options.workflowBundle`); if it
 * replays, pins the run to `to`. Throws RunUpgradeRefusedError with the first difference otherwise.
 */
export async function upgradeRun(agents: AgentClient, runId: string, to: WorkerDeploymentVersion, options: { workflowBundle?: { codePath: string } } = {}): Promise<RunBuild> {
  const handle = agents.temporal.workflow.getHandle(runId);
  const history = await handle.fetchHistory().catch((error: unknown) => {
    if ((error as Error).name === 'WorkflowNotFoundError') throw new RunNotFoundError(`No run with id "${runId}".`);
    throw error;
  });
  try {
    await Worker.runReplayHistory(
      {
        workflowBundle: options.workflowBundle ?? (await workflowBundle()),
        sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } } },
        dataConverter: agents.temporal.options.dataConverter,
      },
      history,
      runId,
    );
  } catch (error) {
    throw new RunUpgradeRefusedError(
      `Run ${runId} does not replay on build ${to.buildId}, so it stays on its own build and finishes there: ${(error as Error).message.split('\n')[0]}. ` +
        'Guard the change with a patch (workflows/changes.ts) if runs like it must move.',
    );
  }
  await agents.temporal.workflowService.updateWorkflowExecutionOptions({
    namespace: agents.temporal.options.namespace,
    workflowExecution: { workflowId: runId },
    workflowExecutionOptions: {
      versioningOverride: {
        pinned: { behavior: temporal.api.workflow.v1.VersioningOverride.PinnedOverrideBehavior.PINNED_OVERRIDE_BEHAVIOR_PINNED, version: { deploymentName: to.deploymentName, buildId: to.buildId } },
      },
    },
    updateMask: { paths: ['versioning_override'] },
  });
  return runBuild(agents, runId);
}
