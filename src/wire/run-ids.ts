/** How a research child's run id is made from its parent's, and read back (the workflow, the activities, recordings). */
const RESEARCH = ':research:';

/** A research child's run id: its parent's, then the call's key (a retried start finds the same child). */
export function researchChildRunId(parentRunId: string, runKey: string): string {
  return `${parentRunId}${RESEARCH}${runKey}`;
}

/** The keys of the research calls that led to this run, outermost first (none for a top-level run). */
export function researchCallKeys(runId: string): string[] {
  return runId.split(RESEARCH).slice(1);
}

/** The run and the runs it is a research child of, outermost first: a cancel of any of them reaches it. */
export function runAndAncestors(runId: string): string[] {
  const parts = runId.split(RESEARCH);
  return parts.map((_, i) => parts.slice(0, i + 1).join(RESEARCH));
}
