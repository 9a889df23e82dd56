/**
 * How a child run's id is made from its parent's, and read back (the workflow, the activities, recordings):
 * `<parent>:research:<callKey>` for a research run, `<parent>:agent:<callKey>` for an agent called as a tool.
 */
const RESEARCH = ':research:';
const AGENT = ':agent:';
const CHILD = /(:research:|:agent:)/;

/** A research child's run id: its parent's, then the call's key (a retried start finds the same child). */
export function researchChildRunId(parentRunId: string, runKey: string): string {
  return `${parentRunId}${RESEARCH}${runKey}`;
}

/** The run id of a child run of another agent (`ask_<agent>`), made the same way. */
export function agentChildRunId(parentRunId: string, runKey: string): string {
  return `${parentRunId}${AGENT}${runKey}`;
}

/** The keys of the child-run calls that led to this run, outermost first (none for a top-level run). */
export function researchCallKeys(runId: string): string[] {
  return runId.split(CHILD).filter((_, i) => i % 2 === 0).slice(1);
}

/** The run and the runs it is a child of, outermost first: a cancel of any of them reaches it. */
export function runAndAncestors(runId: string): string[] {
  const parts = runId.split(CHILD);
  const ids: string[] = [];
  for (let i = 0; i < parts.length; i += 2) ids.push(parts.slice(0, i + 1).join(''));
  return ids;
}

/** The run a child run was started by (null for a top-level run). */
export function parentRunIdOf(runId: string): string | null {
  const ancestors = runAndAncestors(runId);
  return ancestors.length > 1 ? ancestors.at(-2)! : null;
}
