/**
 * Moving a pinned run to another build (Worker Versioning): first replay the run's history with that
 * build's workflow code — this process's, which must be the build being rolled out — and only if the
 * replay succeeds set the run's versioning override to the build, so its next workflow task goes there.
 * A run that would not replay is refused with the first difference; it stays where it is and finishes on
 * its own build. Also: the build a run is on, and making a build its deployment's current one.
 */
import proto from '@temporalio/proto';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import type { AgentClient } from './client.ts';
import { RunNotFoundError } from './client.ts';
import { workflowBundle } from '../worker/workflow-bundle.ts';
import { AgentError } from '../wire/agent-error.ts';

const { temporal } = proto;

/** The run's history does not replay on the build it was to move to: it stays on its own. */
export class RunUpgradeRefusedError extends AgentError {
  override readonly name = 'RunUpgradeRefusedError';
  readonly code = 'RunUpgradeRefused';
}

/** Where a run's workflow tasks go: its build (null: unversioned), how it moves, and an override if set. */
export interface RunBuild {
  version: WorkerDeploymentVersion | null;
  behavior: 'pinned' | 'auto-upgrade' | null;
  /** The build an operator pinned the run to (`upgrade`), if any. */
  pinnedTo: WorkerDeploymentVersion | null;
}

/** The build the run is on now (from Temporal's describe). */
export async function runBuild(agents: AgentClient, runId: string): Promise<RunBuild> {
  const description = await agents.temporal.workflow
    .getHandle(runId)
    .describe()
    .catch((error: unknown) => {
      if ((error as Error).name === 'WorkflowNotFoundError') throw new RunNotFoundError(`No run with id "${runId}".`);
      throw error;
    });
  const info = description.raw.workflowExecutionInfo?.versioningInfo;
  const version = info?.deploymentVersion?.buildId ? { deploymentName: info.deploymentVersion.deploymentName ?? '', buildId: info.deploymentVersion.buildId } : null;
  const behavior =
    info?.behavior === temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_PINNED
      ? 'pinned'
      : info?.behavior === temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE
        ? 'auto-upgrade'
        : null;
  const pinned = info?.versioningOverride?.pinned?.version;
  return { version, behavior, pinnedTo: pinned?.buildId ? { deploymentName: pinned.deploymentName ?? '', buildId: pinned.buildId } : null };
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

/** Makes `version` its deployment's current one: new runs (and auto-upgrade ones) go to it. */
export async function setCurrentBuild(agents: AgentClient, version: WorkerDeploymentVersion): Promise<void> {
  await agents.temporal.workflowService.setWorkerDeploymentCurrentVersion({
    namespace: agents.temporal.options.namespace,
    deploymentName: version.deploymentName,
    buildId: version.buildId,
    identity: 'agent-harness',
  });
}
