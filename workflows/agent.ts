/**
 * The agent loop as a Temporal workflow. Deterministic: every model call and tool run is an activity;
 * time is workflow time; nothing here does I/O.
 *
 * Per iteration: cancelled? → wall time? → turns? → cost? → call the model (`model-call.ts`) → add its cost → final answer
 * or the tool calls (`tool-step.ts`): each, in the model's order, is validated, deduplicated if read-only,
 * put to the policy and, if needed, to a human (`decisions.ts`); then the approved calls run concurrently
 * and their results go back in the model's order. Every way the loop ends is a `Stop` (`stop.ts`),
 * recorded by `LoopState.finish`; continue-as-new and cancellation travel as Temporal wants them to.
 */
import * as wf from '@temporalio/workflow';
import { contractsByName } from '../src/tools/contracts.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { isMcpToolName } from '../src/tools/mcp-contracts.ts';
import { Changes, oldBehaviours } from './changes.ts';
import { HumanDecisions } from './decisions.ts';
import { checkLimits } from './limits.ts';
import type { AgentRunFields, RunInput, RunLimits } from '../src/wire/run-input.ts';
import { linkedAgentContracts } from '../src/agents/agent-tools.ts';
import { takeOver } from './handoff.ts';
import { answerCheckFor, claimWarnings, judgeAnswer, type CheckedAnswer } from './claim-check.ts';
import { withAgent, withoutAgent } from './run-agent.ts';
import { DEFAULT_LIMITS } from '../src/wire/default-limits.ts';
import { LoopState } from './loop-state.ts';
import { modelCall } from './model-call.ts';
import { contextSettings, modelCallWithin, offerRecall, type ContextLoop } from './compaction.ts';
import { addWorkerTools, offerWorkerTools } from './worker-tools.ts';
import { contractError, parseOutputContract, type OutputContract } from './output-contract.ts';
import { recordedRunPrice, type Price } from '../src/wire/pricing.ts';
import { ModelChain } from './model-chain.ts';
import { isStop, stopForError, stoppingLine, type Stop } from './stop.ts';
import { throughStoreOutages } from './store-outage.ts';
import { scheduleCapStop } from './schedule-cap.ts';
import { runToolCalls, type ToolStep } from './tool-step.ts';
import { modelCallSummary, wallTimerSummary } from '../src/wire/summaries.ts';
import type { RunResult } from '../src/wire/types.ts';
import type { ClaimWarning } from '../src/wire/receipt.ts';
import type { CarriedState } from './carried-state.ts';
import { FailureType } from '../src/wire/failures.ts';

export { DEFAULT_SYSTEM_PROMPT, RESEARCH_SYSTEM_PROMPT } from './prompts.ts';

/** What the loop works with: this execution's state, the run's settings, the people it may ask. */
interface Loop extends ToolStep, ContextLoop {
  changes: Changes;
  /** The next model call is to bring the worker's MCP tools (the first call of an execution that names no tools). */
  mcpWithModelCall: boolean;
  /** The price of replies recorded before replies carried their price. */
  price: Price;
  /** The run's model and its fallbacks (`model-chain.ts`). */
  models: ModelChain;
  outputContract: OutputContract | null;
  /** The last reply's claims, checked by its model call (null: not checked there). */
  checkedAnswer: CheckedAnswer | null;
}

export async function agentWorkflow(runInput: RunInput & AgentRunFields, carried?: CarriedState): Promise<RunResult> {
  const changes = new Changes();
  // The agent the run names, applied once: its instructions, tools, limits and policy (`run-agent.ts`).
  const input = runInput.agent === undefined ? withoutAgent(runInput) : await withAgent({ ...runInput, agent: runInput.agent });
  // Runs recorded before a change keep behaving as they did (their histories must replay).
  const old = oldBehaviours(changes);
  const limits: RunLimits = old.noRepetitionStops
    ? { ...DEFAULT_LIMITS, maxRepeatedCalls: 0, maxStaleTurns: 0, maxPolicyDenials: Number.POSITIVE_INFINITY, ...input.limits }
    : { ...DEFAULT_LIMITS, ...input.limits };
  // A child run of another agent spends at most what its parent had left.
  if (input.budgetCapUsd !== undefined) limits.maxBudgetUsd = Math.min(limits.maxBudgetUsd, input.budgetCapUsd);
  const offered = offeredTools(input.tools, changes);
  for (const contract of linkedAgentContracts(input)) offered.set(contract.name, contract);
  const run = carried ? LoopState.fromCarried(carried, changes) : LoopState.fresh(input, changes);
  const decisions = new HumanDecisions(run, input.policy?.approvalTimeoutMs);
  // The run's current details in Temporal's UI (status, turn, cost against the budget, what it waits for).
  run.showDetailsAgainst(limits);
  offerRecall(run, offered);
  const models = new ModelChain(input.model, input.fallbackModels, changes, (from, to, error) => run.fellBack(from, to, error));
  const loop: Loop = {
    input,
    limits,
    old,
    changes,
    offered,
    mcpWithModelCall: false,
    run,
    decisions,
    handoff: null,
    price: recordedRunPrice(input.model),
    models,
    outputContract: parseOutputContract(input.outputSchema),
    context: contextSettings(input, limits),
    checkedAnswer: null,
  };
  // Every handler is set before the first await: a message that came with the start is not lost.
  run.listen(offered);
  decisions.listen();
  // A scheduled run whose schedule has spent its daily cap stops here, before any model call (`schedule-cap.ts`).
  const capped = await scheduleCapStop(input, run, carried !== undefined);
  if (capped) return run.finish(capped);

  // The wall-time limit is a durable timer that cancels whatever is in flight (model call, tool, a wait).
  const loopScope = new wf.CancellationScope();
  let wallTimeUp = false;
  if (limits.maxWallMs !== undefined) {
    const left = Math.max(0, limits.maxWallMs - (Date.now() - run.startedAtMs));
    void wf.CancellationScope.nonCancellable(() => wf.sleep(left, { summary: wallTimerSummary(limits.maxWallMs!) })).then(() => {
      wallTimeUp = true;
      loopScope.cancel();
    });
  }
  // The work in flight is being cancelled: the trace says so first, and the run's activities stop on that
  // line in milliseconds (`activities/heartbeats.ts`); Temporal's cancel reaches them with their next heartbeat.
  loopScope.cancelRequested.catch(() => run.emit(stoppingLine({ wallTimeUp, cancelReason: run.cancelReason })));
  try {
    let judged: ClaimWarning[] = [];
    const stop = await loopScope.run(async () => {
      // MCP tools are the worker's: the run learns them from history, now or with its first model call (`mcp-tools.ts`).
      loop.mcpWithModelCall = await offerWorkerTools(offered, input.tools, changes);
      const stop = await runLoop(loop);
      // The agent in charge at the end (after any handoff) decides whether its answer is judged.
      judged = await judgeAnswer(stop, run, offered, { enabled: loop.input.policy?.claimJudge === true, model: loop.input.model, price: loop.price, maxBudgetUsd: limits.maxBudgetUsd }, changes);
      return stop;
    });
    return run.finish(stop, await claimWarnings(stop, run.state.receipt, offered, changes, judged, loop.checkedAnswer));
  } catch (error) {
    if (error instanceof wf.ContinueAsNew) throw error;
    const stop = stopForError(error, { wallTimeUp, cancelReason: run.cancelReason });
    const result = run.finish(stop);
    // The cleanup is synchronous, so cancellation cannot cut it short; then the cancellation is rethrown
    // so that Temporal records the run as cancelled.
    if (stop.reason === 'cancelled') throw error;
    return result;
  }
}

/** The loop itself: model call, then the final answer or the tool calls, until something stops it. */
async function runLoop(loop: Loop): Promise<Stop> {
  const { limits, run } = loop;
  for (;;) {
    // Read each turn: a handoff changes the run's settings.
    const { input } = loop;
    if (wf.CancellationScope.current().consideredCancelled) throw new wf.CancelledFailure('run cancelled');
    // Children's spend counts against this run's budget.
    const limitStop = checkLimits({ turns: run.state.turns, costUsd: run.state.totalCostUsd, elapsedMs: Date.now() - run.startedAtMs }, limits);
    if (limitStop) return limitStop;
    if (run.shouldContinueAsNew(input.continueAsNewEveryTurns)) return await run.continueAsNew(input);

    // A final answer is checked against the receipt by the call that gives it (`claim-check.ts`).
    const answerCheck = answerCheckFor(run.state.receipt, input.policy?.claimJudge === true, loop.changes);
    // Within the run's context budget: an overflowing call compacts the conversation first (`compaction.ts`);
    // a model unavailable past its retries hands the turn to the next one (`model-chain.ts`).
    const reply = await modelCallWithin(loop, (link, budget) =>
      loop.models.call((model, taskQueue) =>
      throughStoreOutages(run, 'model', limits.maxStoreOutageMs, () =>
        modelCall(
          input,
          {
            runId: run.runId,
            model,
            transcript: link,
            toolNames: [...loop.offered.keys()],
            stream: input.stream ?? true,
            ...(loop.mcpWithModelCall ? { withMcpTools: true } : {}),
            ...(run.offerDigest === undefined ? { withOfferDigest: true } : {}),
            ...(budget ? { context: budget } : {}),
            ...(answerCheck ? { claimCheck: { receipt: answerCheck.receipt } } : {}),
          },
          limits.maxWallMs === undefined ? undefined : run.startedAtMs + limits.maxWallMs,
          modelCallSummary(model, run.state.turns + 1),
          taskQueue,
        ),
      ),
      ),
    );
    if (isStop(reply)) return reply;
    if (loop.mcpWithModelCall) {
      // The worker's MCP tools, as the model was offered them: known before any of the reply's calls.
      addWorkerTools(loop.offered, reply.mcpTools ?? []);
      loop.mcpWithModelCall = false;
    }
    if (reply.offerDigest) run.servedBy(reply.offerDigest);
    // The reply's cost is counted before anything else happens with it.
    run.countTurn(reply, loop.price, loop.models.hasFallbacks ? loop.models.current : undefined);
    run.record(reply.message);
    loop.checkedAnswer = answerCheck && reply.claimWarnings ? { warnings: reply.claimWarnings, receiptJson: answerCheck.receiptJson } : null;

    const calls = reply.message.tool_calls ?? [];
    const stop = calls.length === 0 ? finalAnswer(loop, reply.message.content ?? '') : await runToolCalls(loop, calls);
    if (stop) return stop;
    if (loop.handoff) handOver(loop);
  }
}

/** Another agent takes over (`handoff.ts`): its settings, tools, price and output contract from the next turn. */
function handOver(loop: Loop): void {
  takeOver(loop, loop.run, (names) => offeredTools(names, loop.changes));
  // What compaction elided stays recallable under any agent.
  offerRecall(loop.run, loop.offered);
  loop.price = recordedRunPrice(loop.input.model);
  // The agent in charge now calls its own model (and its fallbacks).
  loop.models.restart(loop.input.model, loop.input.fallbackModels);
  loop.outputContract = parseOutputContract(loop.input.outputSchema);
}

/** A reply without tool calls: the answer, unless it breaks the output contract (one repair is asked for). */
function finalAnswer({ run, outputContract }: Loop, answer: string): Stop | null {
  const broken = outputContract ? contractError(outputContract, answer) : null;
  if (!broken) return { reason: 'final_answer', output: answer };
  if (!run.repairAllowed()) return { reason: 'output_contract', output: answer, error: `The answer broke the output contract twice: ${broken}` };
  run.record({ role: 'user', content: `Your answer does not meet the required output contract: ${broken}. Reply again with only an answer that does.` });
  return null;
}

/**
 * The built-in tools this run offers the model, by name; the worker's own and MCP tools come later
 * (`worker-tools.ts`), and a name no worker offers ends the run there. Runs recorded before workers had
 * their own tools failed here on any name that was neither built in nor an MCP server's.
 */
function offeredTools(names: readonly string[] | undefined, changes: Changes): Map<string, ToolContract> {
  if (!names) return new Map(contractsByName);
  const offered = new Map<string, ToolContract>();
  for (const name of names) {
    const contract = contractsByName.get(name);
    if (contract) offered.set(name, contract);
    else if (!isMcpToolName(name) && !changes.has('worker-tools')) {
      throw wf.ApplicationFailure.nonRetryable(
        `Unknown tool "${name}" in the run input. Known tools: ${[...contractsByName.keys()].join(', ')}.`,
        FailureType.invalidRunInput,
      );
    }
  }
  return offered;
}
