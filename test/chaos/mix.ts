/**
 * The runs of a chaos or soak run: six kinds, each with its input and what it must end as. Every run has a
 * workspace of its own (a copy of examples/workspace under one root all workers allow), so its side
 * effects can be counted on disk: the outbox for send_message, access.log for delete_file.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';
import type { RunResult } from '../../src/wire/types.ts';

export type Kind = 'plan' | 'delete' | 'send' | 'scan' | 'research' | 'continue-as-new';
/** Who answers a run's approval: the HTTP API (token `alice`) or AgentClient (`client-approver`). */
export type Channel = 'http' | 'client';

export const KINDS: readonly Kind[] = ['plan', 'delete', 'send', 'scan', 'research', 'continue-as-new'];

export interface PlannedRun {
  index: number;
  kind: Kind;
  /** Unique: the scripted model server's requests are told apart by it. */
  goal: string;
  workspace: string;
  /** For delete and send: what the approver decides, and how it sends it. */
  decision?: 'approve' | 'reject';
  channel?: Channel;
  input: Record<string, unknown>;
}

const scenarioModel = (file: string) => `scripted:${path.join(PROJECT_ROOT, 'test', 'chaos', 'scenarios', file)}`;

const GOALS: Record<Kind, string> = {
  plan: 'Find the error in the logs',
  delete: 'Free some disk space',
  send: 'Tell Alice about the timeout',
  scan: 'Scan the workspace',
  research: 'Research the timeout',
  'continue-as-new': 'Find the error in the logs, continuing as new every turn',
};

const MODELS: Record<Kind, string> = {
  plan: scenarioModel('plan.ts'),
  delete: scenarioModel('delete-approval.ts'),
  send: scenarioModel('send-message.ts'),
  scan: scenarioModel('slow-scan.ts'),
  research: scenarioModel('research.ts'),
  'continue-as-new': scenarioModel('plan.ts'),
};

/** Run `index` of a phase (`tag`): kinds in turn; every fourth approval is rejected; approvals alternate HTTP / AgentClient. */
export function planRun(tag: string, index: number, workspaceRoot: string): PlannedRun {
  const kind = KINDS[index % KINDS.length]!;
  const name = `${tag}-${String(index).padStart(4, '0')}`;
  const workspace = path.join(workspaceRoot, name);
  cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
  const goal = `${GOALS[kind]} [${name}]`;
  const approvals = kind === 'delete' || kind === 'send';
  const round = Math.floor(index / KINDS.length);
  return {
    index,
    kind,
    goal,
    workspace,
    ...(approvals ? { decision: round % 4 === 3 ? 'reject' : 'approve', channel: round % 2 === 0 ? 'http' : 'client' } : {}),
    input: { goal, model: MODELS[kind], workspace, ...(kind === 'continue-as-new' ? { continueAsNewEveryTurns: 1 } : {}) },
  };
}

const PLAN_ANSWER = 'errors.log mentions a timeout: worker 7 timed out after 30000 ms.';

/** What is wrong with how `run` ended, or null when it ended as its scenario says. */
export function wrongOutcome(run: PlannedRun, result: RunResult): string | null {
  if (result.status !== 'completed') return `${result.status} (${result.reason ?? ''}): ${result.error ?? ''}`;
  const output = result.output ?? '';
  const expect = (ok: boolean, what: string) => (ok ? null : `output ${JSON.stringify(output.slice(0, 200))}, expected ${what}`);
  switch (run.kind) {
    case 'plan':
    case 'continue-as-new':
      return expect(output === PLAN_ANSWER, JSON.stringify(PLAN_ANSWER));
    case 'delete':
      return run.decision === 'approve'
        ? expect(output === 'Deleted access.log to free space.', 'the deletion')
        : expect(output.startsWith('I did not delete anything'), 'no deletion');
    case 'send':
      return run.decision === 'approve' ? expect(output === 'Message sent (26 characters).', 'the message sent') : expect(!/Message sent/.test(output), 'no message sent');
    case 'scan':
      return expect(output === 'Scanned 1200 files: no problems found.', 'the scan result');
    case 'research':
      return expect(output.startsWith('Research found: ') && /timed out/.test(output), "the research child's summary");
  }
}
