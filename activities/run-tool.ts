import { appendFileSync } from 'node:fs';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { z } from 'zod';
import type { ToolRegistry } from '../src/tools/registry.ts';
import { RetryableToolError } from '../src/tools/errors.ts';
import { FailureType, toolErrorText } from '../src/wire/failures.ts';
import { checkWorkspace, WorkspaceRefusedError } from '../src/tools/workspace-roots.ts';
import { truncateForModel } from '../src/wire/payload-bounds.ts';
import type { ToolOutcome } from '../src/wire/types.ts';
import type { ToolReplay } from '../src/wire/replay.ts';
import type { AgentStore } from '../src/store/store.ts';
import { ActivityHeartbeats } from './heartbeats.ts';
import { ProgressReporter } from './progress-reporter.ts';
import { isStoreError, orStoreFailure, storeFailure } from './store-failures.ts';

export interface RunToolInput {
  runId: string;
  /**
   * The key the call runs under, unique in the run: the idempotency key is `<runId>:<runKey>`, and progress
   * is reported under it. The harness's call key, or for runs keyed by provider ids, that id made unique.
   */
  runKey?: string;
  /** What workflows before v0.7 named `runKey` (they send only this; newer ones send both). */
  callKey?: string;
  /** The provider's id for the call (may repeat within a run, or be empty). */
  toolCallId: string;
  toolName: string;
  /** Already validated against the tool's input schema by the workflow. */
  args: Record<string, unknown>;
  workspace?: string;
  /** Set when the run replays a recording: side-effect tools then return the recorded result (activities/recorded-tools.ts). */
  replay?: ToolReplay;
}

export interface RunToolDeps {
  tools: ToolRegistry;
  /** Every execution attempt of a tool is appended here (audit: proves what ran, and how often). */
  runLog: string;
  defaultWorkspace: string;
  /** A run's workspace must lie under one of these (defence in depth: the client checks too). */
  workspaceRoots: readonly string[];
  /** Keeps a whole output that was cut for the model; returns its reference. */
  keepOutput: (text: string) => Promise<string>;
  /** For progress signals to the run. */
  client: Client;
  /** Where the run's cancel is announced (`heartbeats.ts`). */
  store: Pick<AgentStore, 'subscribe'>;
}

/** A tool that ignores its aborted signal this long after Temporal's cancel is abandoned, so the run can still end. */
export const CANCEL_GRACE_MS = 2000;

/** Runs one tool call. A tool's own error becomes the model's tool message; only infrastructure trouble fails the activity. */
export function createRunTool({ tools, defaultWorkspace, workspaceRoots, keepOutput, client, runLog, store }: RunToolDeps) {
  return async function runTool(input: RunToolInput): Promise<ToolOutcome> {
    const ctx = Context.current();
    const runKey = input.runKey ?? input.callKey;
    if (runKey === undefined) throw ApplicationFailure.nonRetryable('runTool needs a runKey.', FailureType.invalidToolInput);
    const tool = tools.get(input.toolName);
    if (!tool) {
      throw ApplicationFailure.nonRetryable(
        `This worker has no implementation of tool "${input.toolName}" (it has: ${[...tools.keys()].join(', ')}). ` +
          'Deploy workers built from the same tool catalog as the workflow.',
        FailureType.toolNotImplemented,
      );
    }
    const workspace = input.workspace ?? defaultWorkspace;
    try {
      checkWorkspace(workspace, workspaceRoots);
    } catch (error) {
      if (error instanceof WorkspaceRefusedError) throw ApplicationFailure.nonRetryable(error.message, error.code);
      throw error;
    }
    appendFileSync(runLog, JSON.stringify({ at: new Date().toISOString(), runId: input.runId, runKey, toolCallId: input.toolCallId, tool: tool.name, attempt: ctx.info.attempt, pid: process.pid }) + '\n');
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const progress = new ProgressReporter(client, { workflowId: input.runId, callKey: runKey });
    // Local activities (quick read-only tools) have no heartbeats: their cancellation is local too.
    const heartbeats = ctx.info.isLocal ? null : await orStoreFailure(ActivityHeartbeats.start(ctx, store, input.runId));
    const signal = heartbeats?.signal ?? ctx.cancellationSignal;
    let abandon: NodeJS.Timeout | undefined;
    const abandoned = new Promise<never>((_, reject) => {
      ctx.cancellationSignal.addEventListener('abort', () => {
        abandon = setTimeout(() => reject(new CancelledFailure(`tool ${tool.name} ignored cancellation for ${CANCEL_GRACE_MS} ms and was abandoned`)), CANCEL_GRACE_MS);
      });
    });
    try {
      const args = tool.input.parse(input.args);
      const running = tool.run(args, {
        signal,
        progress: (text) => {
          if (heartbeats) heartbeats.details = { label: text };
          progress.report(text);
        },
        idempotencyKey: `${input.runId}:${runKey}`,
        runId: input.runId,
        callKey: runKey,
        toolCallId: input.toolCallId,
        workspace,
      });
      const result = await Promise.race([running, abandoned]);
      const checked = tool.output.safeParse(result);
      if (!checked.success) {
        return { ok: false, content: toolErrorText(`tool ${tool.name} broke its output contract: ${z.prettifyError(checked.error)}`), ms: ms() };
      }
      const content = typeof checked.data === 'string' ? checked.data : JSON.stringify(checked.data);
      if (content.length <= tool.maxOutputChars) return { ok: true, content, ms: ms() };
      // Too big for the model and for Temporal's history: the model sees the start, the store keeps it all.
      const kept = { ref: await keepOutput(content), chars: content.length };
      return { ok: true, content: truncateForModel(content, tool.maxOutputChars, kept), ms: ms(), kept };
    } catch (error) {
      if (signal.aborted) {
        // Stopped by Temporal's cancel or the announced stop: the activity ends cancelled once Temporal cancels it too.
        await heartbeats?.untilTemporalCancels(`Tool ${tool.name}`);
        throw error instanceof CancelledFailure ? error : new CancelledFailure(`tool ${tool.name} cancelled`);
      }
      if (error instanceof RetryableToolError) throw ApplicationFailure.retryable(error.message, error.code);
      // The store's trouble is the harness's, not the tool's: the run waits for the store, never telling the model.
      if (isStoreError(error)) throw storeFailure(error);
      const message = toolErrorText(error instanceof Error ? error.message : String(error));
      return { ok: false, content: truncateForModel(message, tool.maxOutputChars), ms: ms() };
    } finally {
      heartbeats?.close();
      clearTimeout(abandon);
      await progress.close();
    }
  };
}
