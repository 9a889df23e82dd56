/**
 * Worker Versioning, client side (no worker code): the build a run is on, and making a build its
 * deployment's current one. Moving a run to a build is `upgradeRun` (upgrade.ts).
 */
import proto from '@temporalio/proto';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { RunNotFoundError, type AgentClient } from './client.ts';

const { temporal } = proto;

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

/** Makes `version` its deployment's current one: new runs (and auto-upgrade ones) go to it. */
export async function setCurrentBuild(agents: AgentClient, version: WorkerDeploymentVersion): Promise<void> {
  await agents.temporal.workflowService.setWorkerDeploymentCurrentVersion({
    namespace: agents.temporal.options.namespace,
    deploymentName: version.deploymentName,
    buildId: version.buildId,
    identity: 'agent-harness',
  });
}
