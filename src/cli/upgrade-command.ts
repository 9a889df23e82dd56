/**
 * `build <runId>` and `upgrade <runId>` (Worker Versioning): the build a run is on, and moving a pinned run
 * to this checkout's build after replaying its history with this checkout's workflow code.
 */
import { UsageError, runIdOf, withRuntime, NO_WORKER, type Invocation } from './context.ts';
import type { Runtime } from './runtime.ts';

export async function buildText(rt: Runtime, runId: string): Promise<string> {
  const { runBuild } = await import('../client/run-build.ts');
  const build = await runBuild(rt.agents, runId);
  const version = build.version ? `${build.version.deploymentName} ${build.version.buildId}` : 'unversioned';
  return `run ${runId}: build ${version}${build.behavior ? ` (${build.behavior})` : ''}${build.pinnedTo ? `; pinned by an operator to ${build.pinnedTo.buildId}` : ''}`;
}

export async function upgrade(inv: Invocation): Promise<number> {
  const runId = runIdOf(inv);
  const [{ deploymentFromEnv }, { upgradeRun }] = await Promise.all([import('../worker/deployment.ts'), import('../client/upgrade.ts')]);
  const deployment = deploymentFromEnv(process.env, { name: inv.values.deployment, buildId: inv.values['build-id'] });
  if (!deployment) throw new UsageError('"upgrade" needs the build to move the run to: --deployment <name> [--build-id <id>] (or AGENT_DEPLOYMENT_NAME, AGENT_BUILD_ID), as the new workers were started with.');
  return withRuntime(NO_WORKER, async (rt) => {
    const to = { deploymentName: deployment.name, buildId: deployment.buildId };
    await upgradeRun(rt.agents, runId, to);
    console.log(`run ${runId} replays on build ${to.buildId}: pinned to it; its next workflow task runs there`);
    return 0;
  });
}
