/**
 * The invariants users rely on, each as a small source change that breaks it (a mutant) and the tests
 * that must then fail. `npm run test:mutants` applies each to a copy of the tree and fails if any survives.
 *
 * To add one: state the invariant, change as little as breaks it (`edits`: text found exactly once in
 * `file`, and what it becomes), and name the tests that claim it (`tests`: file and name pattern). Run
 * `npm run test:mutants -- <id>` and see it killed; if it survives, the tests do not hold the invariant yet.
 */

export interface Mutant {
  /** Short and stable: `npm run test:mutants -- <id>` runs this one. */
  id: string;
  /** What users rely on that this change breaks. */
  invariant: string;
  /** The file changed, from the project root. */
  file: string;
  /** Each `find` must occur exactly once in the file (else the mutant no longer applies: the check fails). */
  edits: { find: string; replace: string }[];
  /** The tests that must fail: a test file under test/ and a pattern of test names in it. */
  tests: { file: string; name: string }[];
  /** Part of the quick subset `.ci/run` runs (`--ci`). */
  ci?: boolean;
}

export const MUTANTS: Mutant[] = [
  {
    id: 'approval-hash-ignored',
    invariant: 'an approval binds to the exact arguments it was shown (argsHash)',
    file: 'workflows/decisions.ts',
    edits: [{ find: 'if (argsHash !== undefined && argsHash !== pending.argsHash) {', replace: 'if (false) {' }],
    tests: [{ file: 'approval.test.ts', name: 'wrong argsHash' }],
    ci: true,
  },
  {
    id: 'side-effect-deduplicated-across-turns',
    invariant: 'a side-effect call asked for again in a later turn runs again (under its own key)',
    file: 'workflows/tool-step.ts',
    edits: [
      { find: 'const signature = contract.readOnly ? `${contract.name}:${canonicalJson(args)}` : null;', replace: 'const signature = `${contract.name}:${canonicalJson(args)}`;' },
      { find: 'inThisReply.set(signature, { index, callKey });', replace: 'if (contract.readOnly) inThisReply.set(signature, { index, callKey });' },
    ],
    tests: [{ file: 'tools-policy.test.ts', name: 'the same deletion asked twice runs twice' }],
  },
  {
    id: 'side-effect-deduplicated-in-reply',
    invariant: 'the same side-effect call twice in one reply is asked for and run twice',
    file: 'workflows/tool-step.ts',
    edits: [
      { find: 'const signature = contract.readOnly ? `${contract.name}:${canonicalJson(args)}` : null;', replace: 'const signature = `${contract.name}:${canonicalJson(args)}`;' },
      { find: 'const earlier = run.readOnlyResult(signature);', replace: 'const earlier = contract.readOnly ? run.readOnlyResult(signature) : undefined;' },
    ],
    tests: [{ file: 'approval.test.ts', name: 'the same side-effect call twice in one reply' }],
  },
  {
    id: 'budget-boundary',
    invariant: 'a run stops once its spend reaches the budget, not only past it',
    file: 'workflows/limits.ts',
    edits: [{ find: 'if (progress.costUsd >= limits.maxBudgetUsd)', replace: 'if (progress.costUsd > limits.maxBudgetUsd)' }],
    tests: [{ file: 'pure-helpers.test.ts', name: 'limits are checked in the order' }],
    ci: true,
  },
  {
    id: 'cost-counted-late',
    invariant: "a reply's cost is counted before anything else happens with it",
    file: 'workflows/agent.ts',
    edits: [
      { find: '    run.countTurn(reply, loop.price, loop.models.hasFallbacks ? loop.models.current : undefined);\n    run.record(reply.message);', replace: '    run.record(reply.message);' },
      { find: '    if (stop) return stop;\n    if (loop.handoff) handOver(loop);\n  }\n}', replace: '    run.countTurn(reply, loop.price, loop.models.hasFallbacks ? loop.models.current : undefined);\n    if (stop) return stop;\n    if (loop.handoff) handOver(loop);\n  }\n}' },
    ],
    tests: [{ file: 'agent-loop.test.ts', name: 'its trace has the seed event sequence' }],
  },
  {
    id: 'cost-after-limit-check',
    invariant: "the budget check sees the reply's cost (the run stops within the cap plus one reply)",
    file: 'workflows/loop-state.ts',
    edits: [{ find: '    state.costUsd = cost.add(usage, price);\n    this.refreshTotals();', replace: '    this.refreshTotals();\n    state.costUsd = cost.add(usage, price);' }],
    tests: [{ file: 'agent-loop.test.ts', name: 'a budget cap stops the run' }],
  },
  {
    id: 'high-risk-as-medium',
    invariant: 'a high-risk tool always waits for a human',
    file: 'workflows/policy.ts',
    edits: [
      {
        find: "return { action: 'ask', why: 'high-risk tools need a human decision' };",
        replace: "return mediumRunsSoFar < (policy.mediumQuota ?? DEFAULT_MEDIUM_QUOTA) ? { action: 'run' } : { action: 'ask', why: 'quota' };",
      },
    ],
    tests: [{ file: 'approval.test.ts', name: 'approved: access.log is deleted' }],
  },
  {
    id: 'delete-ledger-ignored',
    invariant: 'a deletion retried after it happened does not happen twice (the ledger)',
    file: 'src/tools/delete-file.ts',
    edits: [{ find: "if (entry.phase === 'done') return entry.outcome!;", replace: '' }],
    tests: [{ file: 'tools-policy.test.ts', name: 'fails after deleting is retried and does not delete twice' }],
  },
  {
    id: 'workspace-dotdot-rule',
    invariant: 'a path with ".." is refused',
    file: 'src/tools/workspace.ts',
    edits: [{ find: "if (requested.split(/[\\\\/]+/).includes('..')) {", replace: 'if (false) {' }],
    tests: [{ file: 'workspace.test.ts', name: 'refused by its own rule' }],
    ci: true,
  },
  {
    id: 'workspace-real-path',
    invariant: 'a link out of the workspace is refused',
    file: 'src/tools/workspace.ts',
    edits: [{ find: 'if (real !== root && !real.startsWith(root + path.sep)) {', replace: 'if (false) {' }],
    tests: [{ file: 'workspace.test.ts', name: 'refused by the real-path check' }],
    ci: true,
  },
  {
    id: 'redaction-skipped',
    invariant: "a contract's redacted fields never reach the trace or state",
    file: 'workflows/tool-step.ts',
    edits: [{ find: 'const shownArgs = JSON.stringify(redactFields(args, contract.redact));', replace: 'const shownArgs = JSON.stringify(args);' }],
    tests: [{ file: 'tools-policy.test.ts', name: 'a redacted argument is masked' }],
  },
  {
    id: 'answer-checked-without-receipt',
    invariant: "a final answer checked by its model call is checked against the run's receipt",
    file: 'workflows/agent.ts',
    edits: [{ find: '...(answerCheck ? { claimCheck: { receipt: answerCheck.receipt } } : {}),', replace: '...(answerCheck ? { claimCheck: { receipt: [] } } : {}),' }],
    tests: [{ file: 'receipt.test.ts', name: 'an approved deletion' }],
  },
  {
    id: 'receipt-rejected-as-done',
    invariant: 'a rejected call is rejected in the receipt',
    file: 'src/claims/receipt.ts',
    edits: [{ find: ": put({ outcome: 'rejected', detail: event.reason || 'no reason' });", replace: ": put({ outcome: 'done' });" }],
    tests: [{ file: 'claims.test.ts', name: '.' }],
    ci: true,
  },
  {
    id: 'tool-signal-never-aborts',
    invariant: "a cancel aborts a running tool's signal",
    file: 'activities/run-tool.ts',
    edits: [{ find: 'const signal = heartbeats?.signal ?? ctx.cancellationSignal;', replace: 'const signal = new AbortController().signal;' }],
    tests: [{ file: 'cancellation.test.ts', name: 'cancelled mid-scan' }],
  },
  {
    id: 'read-only-results-not-carried',
    invariant: 'read-only results cross continue-as-new (no rerun of an identical read)',
    file: 'workflows/loop-state.ts',
    edits: [{ find: 'readOnlyResults: results.reverse().map(', replace: 'readOnlyResults: [].map(' }],
    tests: [{ file: 'history.test.ts', name: 'keeps its id, its totals' }],
  },
  {
    id: 'spend-reset-at-continue-as-new',
    invariant: 'the spend so far crosses continue-as-new (the budget is not started afresh)',
    file: 'workflows/loop-state.ts',
    edits: [{ find: '    this.runState = carried.state;', replace: '    this.runState = { ...carried.state, usage: { promptTokens: 0, completionTokens: 0 }, costUsd: 0 };' }],
    tests: [
      { file: 'history.test.ts', name: 'keeps its id, its totals' },
      { file: 'stops.test.ts', name: 'crosses continue-as-new' },
    ],
  },
  {
    id: 'approvals-open-to-viewers',
    invariant: 'only an approver may approve',
    file: 'src/http/routes/decisions.ts',
    edits: [{ find: "'/runs/:id/approvals/:callKey',\n    {\n      config: { role: 'approver' },", replace: "'/runs/:id/approvals/:callKey',\n    {\n      config: { role: 'viewer' }," }],
    tests: [{ file: 'http.test.ts', name: 'a role short of the route' }],
  },
  {
    id: 'last-event-id-ignored',
    invariant: 'a reconnecting stream gets exactly the events after Last-Event-ID',
    file: 'src/http/routes/events.ts',
    edits: [{ find: "lastEventId(request.headers['last-event-id']) ?? request.query.after ?? 0", replace: "(lastEventId(request.headers['last-event-id']), request.query.after ?? 0)" }],
    tests: [{ file: 'http.test.ts', name: 'reconnecting with Last-Event-ID' }],
  },
  {
    id: 'call-keys-collide',
    invariant: 'each call of a reply has its own key (an approval unlocks that call only)',
    file: 'workflows/tool-step.ts',
    edits: [{ find: 'const callKey = step.old.providerCallKeys ? call.id : `t${run.state.turns}.${index + 1}`;', replace: 'const callKey = step.old.providerCallKeys ? call.id : `t${run.state.turns}.1`;' }],
    tests: [{ file: 'approval.test.ts', name: 'several calls in one reply' }],
  },
  {
    id: 'store-outage-told-to-model',
    invariant: 'a store outage is waited out, never told to the model as a tool result (an approved action still happens once)',
    file: 'workflows/store-outage.ts',
    edits: [{ find: "if (failureType(error) !== FailureType.storeUnavailable || !run.changes.has('store-outage-waits')) throw error;", replace: 'throw error;' }],
    tests: [{ file: 'store-outage.test.ts', name: 'an approval arriving during the outage' }],
    ci: true,
  },
  {
    id: 'user-tool-risk-lost',
    invariant: "a team's own high-risk tool waits for a human, as a built-in one does (its flags reach the run intact)",
    file: 'src/tools/tool-definition.ts',
    edits: [{ find: '    risk: definition.risk,', replace: "    risk: 'low'," }],
    tests: [{ file: 'user-tools.test.ts', name: 'a run naming its tools' }],
    ci: true,
  },
  {
    id: 'user-tool-unvalidated',
    invariant: "a call to a team's own tool is validated against its schema before it runs",
    file: 'src/tools/tool-definition.ts',
    edits: [{ find: '    input: z.fromJSONSchema(definition.inputSchema),', replace: '    input: z.looseObject({}),' }],
    tests: [{ file: 'user-tools.test.ts', name: "arguments the tool's schema refuses" }],
  },
  {
    id: 'agent-allowance-ignored',
    invariant: 'a run naming an agent may not set a limit beyond what the agent allows',
    file: 'workflows/run-agent.ts',
    edits: [{ find: '    if (value > bound) refuse(', replace: '    if (false) refuse(' }],
    tests: [{ file: 'agents.test.ts', name: 'a run may not go beyond what the agent allows' }],
  },
  {
    id: 'child-approval-unlisted',
    invariant: 'an approval inside a child run (an agent called as a tool) is listed with its parent among the runs waiting for a person',
    file: 'src/client/run-list.ts',
    edits: [{ find: "  if (!statuses?.every((s) => WAITING_STATUSES.includes(s))) clauses.push('ParentWorkflowId IS NULL');", replace: "  clauses.push('ParentWorkflowId IS NULL');" }],
    tests: [{ file: 'multi-agent.test.ts', name: 'an agent called as a tool waits for its own approval' }],
  },
  {
    id: 'child-answer-lost',
    invariant: "approving a child run's call resumes the parent's call with the child's answer",
    file: 'workflows/research.ts',
    edits: [{ find: "  if (result.status === 'completed') return { ok: true, content: result.output ?? '', ms };", replace: "  if (result.status === 'completed') return { ok: true, content: '', ms };" }],
    tests: [{ file: 'multi-agent.test.ts', name: 'an agent called as a tool waits for its own approval' }],
  },
  {
    id: 'cancelled-child-spend-lost',
    invariant: "a cancelled child run's spend counts in its parent's totals and budget",
    file: 'workflows/research.ts',
    edits: [{ find: "run.changes.has('child-spend-kept')", replace: 'false' }],
    tests: [{ file: 'multi-agent.test.ts', name: "a cancelled child's spend" }],
  },
  {
    id: 'handoff-policy-kept',
    invariant: "after a handoff the run follows the new agent's policy, not the one that handed over",
    file: 'workflows/run-agent.ts',
    edits: [{ find: "    // The new agent's policy, never the one of the agent that handed over.\n    ...(agent.policy ? { policy: agent.policy } : {}),", replace: '    ...(input.policy ? { policy: input.policy } : {}),' }],
    tests: [{ file: 'multi-agent.test.ts', name: 'a handoff and back' }],
    ci: true,
  },
  {
    id: 'progress-label-outlives-tool',
    invariant: "a tool's progress label goes when the tool finishes",
    file: 'workflows/loop-state.ts',
    edits: [{ find: '      this.progressOf = null;\n      this.runState.progress = null;', replace: '      this.progressOf = null;' }],
    tests: [{ file: 'store-outage.test.ts', name: "a tool's label goes when the tool finishes" }],
  },
  {
    id: 'closing-trace-not-awaited',
    invariant: "an execution does not close before its trace lines are stored (a worker killed in a store outage cannot take a closed run's last lines with it)",
    file: 'src/worker/trace-sink.ts',
    edits: [{ find: 'return closesWaitingForStore(line) ? this.allStored(line.runId, queue) : flushed;', replace: 'return flushed;' }],
    tests: [{ file: 'trace-sink.test.ts', name: "an execution's closing line returns only once" }],
    ci: true,
  },
  {
    id: 'live-state-final-memo-lost',
    invariant: "a closed run's outcome is readable from its memo without a worker",
    file: 'workflows/loop-state.ts',
    edits: [{ find: 'this.live.flush({ [FINAL_STATE_MEMO]: state });', replace: 'this.live.flush();' }],
    tests: [{ file: 'approval.test.ts', name: "a closed run's state is readable with no worker running" }],
  },
];
