import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { z } from 'zod';
import type { ToolRegistry } from '../src/tools/registry.ts';
import { RetryableToolError } from '../src/tools/errors.ts';
import { FailureType } from '../workflows/failures.ts';
import { toolErrorText } from '../workflows/tool-calls.ts';
import type { ToolOutcome } from '../workflows/types.ts';

export interface RunToolInput {
  runId: string;
  callId: string;
  toolName: string;
  /** Already validated against the tool's input schema by the workflow. */
  args: Record<string, unknown>;
  workspace?: string;
}

export interface RunToolDeps {
  tools: ToolRegistry;
  defaultWorkspace: string;
}

/** Runs one tool call. A tool's own error becomes the model's tool message; only infrastructure trouble fails the activity. */
export function createRunTool({ tools, defaultWorkspace }: RunToolDeps) {
  return async function runTool(input: RunToolInput): Promise<ToolOutcome> {
    const ctx = Context.current();
    const tool = tools.get(input.toolName);
    if (!tool) {
      throw ApplicationFailure.nonRetryable(
        `This worker has no implementation of tool "${input.toolName}" (it has: ${[...tools.keys()].join(', ')}). ` +
          'Deploy workers built from the same tool catalog as the workflow.',
        FailureType.toolNotImplemented,
      );
    }
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const args = tool.input.parse(input.args);
      const result = await tool.run(args, {
        signal: ctx.cancellationSignal,
        progress: (label) => ctx.heartbeat({ label }),
        idempotencyKey: `${input.runId}:${input.callId}`,
        runId: input.runId,
        callId: input.callId,
        workspace: input.workspace ?? defaultWorkspace,
      });
      const checked = tool.output.safeParse(result);
      if (!checked.success) {
        return { ok: false, content: toolErrorText(`tool ${tool.name} broke its output contract: ${z.prettifyError(checked.error)}`), ms: ms() };
      }
      return { ok: true, content: typeof checked.data === 'string' ? checked.data : JSON.stringify(checked.data), ms: ms() };
    } catch (error) {
      if (ctx.cancellationSignal.aborted) throw new CancelledFailure(`tool ${tool.name} cancelled`);
      if (error instanceof RetryableToolError) throw ApplicationFailure.retryable(error.message, FailureType.toolRetryable);
      return { ok: false, content: toolErrorText(error instanceof Error ? error.message : String(error)), ms: ms() };
    }
  };
}
