/**
 * Worker Versioning (Temporal Worker Deployments), opt-in: a worker that declares a deployment name and a
 * build id serves only the runs of its build. Runs are pinned by default: a run that waits a week for a
 * person finishes on the code it started on, whatever is deployed meanwhile (`upgrade` moves one on, after
 * replaying it: `src/client/upgrade.ts`). Agents whose runs are short may choose `auto-upgrade`. A worker
 * given no deployment (the embedded `demo`/`run` one, tests) is unversioned, as before.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkerOptions } from '@temporalio/worker';
import { PROJECT_ROOT } from '../paths.ts';
import { AgentError } from '../wire/agent-error.ts';

/** How a versioned worker's runs move between builds: pinned (default) or auto-upgrade. */
export const DEPLOYMENT_BEHAVIORS = ['pinned', 'auto-upgrade'] as const;
/** `pinned`: a run stays on the build it started on; `auto-upgrade`: it moves to the current build. */
export type DeploymentBehavior = (typeof DEPLOYMENT_BEHAVIORS)[number];

/** A worker's deployment version: the deployment's name and this build's id; and how its runs move. */
export interface WorkerDeployment {
  /** The Worker Deployment (one per fleet serving a task queue), e.g. `agents`. */
  name: string;
  /** This build: e.g. the package version and commit (`deploymentFromEnv` makes one). */
  buildId: string;
  /** Default `pinned`. */
  behavior?: DeploymentBehavior;
}

/** The worker's deployment settings are not usable (a missing build id, an unknown behavior). */
export class DeploymentConfigError extends AgentError {
  override readonly name = 'DeploymentConfigError';
  readonly code = 'DeploymentConfig';
}

/** The Temporal worker options of a deployment (none: unversioned). */
export function deploymentWorkerOptions(deployment: WorkerDeployment | null | undefined): Pick<WorkerOptions, 'workerDeploymentOptions'> {
  if (!deployment) return {};
  return {
    workerDeploymentOptions: {
      version: { deploymentName: deployment.name, buildId: deployment.buildId },
      useWorkerVersioning: true,
      defaultVersioningBehavior: deployment.behavior === 'auto-upgrade' ? 'AUTO_UPGRADE' : 'PINNED',
    },
  };
}

/**
 * The deployment the environment (or the `worker` command's flags) names: AGENT_DEPLOYMENT_NAME turns
 * versioning on; AGENT_BUILD_ID names the build (default: the package version and the commit,
 * `0.7.0+3f65258`); AGENT_VERSIONING_BEHAVIOR `pinned` (default) or `auto-upgrade`. Null without a name.
 */
export function deploymentFromEnv(env: NodeJS.ProcessEnv = process.env, flags: { name?: string | undefined; buildId?: string | undefined; behavior?: string | undefined } = {}): WorkerDeployment | null {
  const name = flags.name ?? env.AGENT_DEPLOYMENT_NAME;
  if (!name) return null;
  const buildId = flags.buildId ?? env.AGENT_BUILD_ID ?? defaultBuildId();
  const behavior = flags.behavior ?? env.AGENT_VERSIONING_BEHAVIOR ?? 'pinned';
  if (!(DEPLOYMENT_BEHAVIORS as readonly string[]).includes(behavior)) {
    throw new DeploymentConfigError(`Versioning behavior "${behavior}" is not one of ${DEPLOYMENT_BEHAVIORS.join(', ')} (AGENT_VERSIONING_BEHAVIOR or --versioning).`);
  }
  return { name, buildId, behavior: behavior as DeploymentBehavior };
}

/** The package version and, in a git checkout, the commit: `0.7.0+3f65258`. */
export function defaultBuildId(): string {
  const version = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return commit ? `${version}+${commit}` : version;
  } catch {
    throw new DeploymentConfigError(`No build id: set AGENT_BUILD_ID (e.g. "${version}+<commit>"); this is not a git checkout to take the commit from.`);
  }
}
