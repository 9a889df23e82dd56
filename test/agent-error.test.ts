/** The error classes share one base: names and failure types as clients know them, stable codes, isInstance. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentError } from '../src/wire/agent-error.ts';
import { FailureType } from '../src/wire/failures.ts';
import { StoreIntegrityError, StoreUnavailableError } from '../src/store/errors.ts';
import { McpServerUnavailableError } from '../src/mcp/errors.ts';
import { RetryableToolError } from '../src/tools/errors.ts';
import { WorkspaceRefusedError } from '../src/tools/workspace-roots.ts';
import { InvalidRunInputError } from '../src/client/run-input.ts';
import { RunNotFoundError } from '../src/client/client.ts';
import { HttpError } from '../src/http/errors.ts';
import { TranscriptMissingError } from '../activities/transcript.ts';

test('every failure type keeps the string Temporal records and clients see', () => {
  const pinned =
    'ModelRequestRejected ModelAuthRejected ModelNotFound ContextTooLong ModelRefused ModelPriceUnknown ProviderUnknown ModelUnavailable ' +
    'ToolNotImplemented WorkspaceRefused ModelReplyTooLarge ScriptedModelRefused StoreUnavailable ' +
    'StoreIntegrity ToolRetryable RunCancelRequested WallTimeUp InvalidRunInput UnknownCarriedStateVersion TranscriptMissing RecordingUnreadable InvalidToolInput';
  assert.deepEqual(Object.values(FailureType), pinned.split(' '));
});

test('an error that becomes a failure type has that type as its code; its name is as before', () => {
  const cases: [AgentError, string, string][] = [
    [new StoreUnavailableError('the store', 'down', 'start it'), 'StoreUnavailableError', FailureType.storeUnavailable],
    [new StoreIntegrityError('corrupt', 'ref'), 'StoreIntegrityError', FailureType.storeIntegrity],
    [new RetryableToolError('again'), 'RetryableToolError', FailureType.toolRetryable],
    [new WorkspaceRefusedError('outside'), 'WorkspaceRefusedError', FailureType.workspaceRefused],
    [new InvalidRunInputError('bad'), 'InvalidRunInputError', FailureType.invalidRunInput],
    [new TranscriptMissingError('gone'), 'TranscriptMissingError', FailureType.transcriptMissing],
    [new RunNotFoundError('none'), 'RunNotFoundError', 'RunNotFound'],
    [new HttpError('conflict', 'refused'), 'HttpError', 'conflict'],
  ];
  for (const [error, name, code] of cases) {
    assert.equal(error.name, name);
    assert.equal(error.code, code, name);
    assert.ok(error instanceof Error && AgentError.isInstance(error), name);
    assert.match(String(error), new RegExp(`^${name}: `));
  }
});

test('isInstance tells the classes apart, and holds for a marked error of the same name from another copy of a class', () => {
  const unavailable = new StoreUnavailableError('the store', 'down', 'start it');
  assert.ok(StoreUnavailableError.isInstance(unavailable));
  assert.ok(!StoreIntegrityError.isInstance(unavailable));
  assert.ok(!McpServerUnavailableError.isInstance(unavailable));
  assert.ok(McpServerUnavailableError.isInstance(new McpServerUnavailableError('web', 'down')));

  const plain = Object.assign(new Error('down'), { name: 'StoreUnavailableError' });
  assert.ok(!AgentError.isInstance(plain) && !StoreUnavailableError.isInstance(plain), 'an unmarked error is not ours');
  class Copy extends AgentError {
    override readonly name = 'StoreUnavailableError';
    readonly code = FailureType.storeUnavailable;
  }
  assert.ok(StoreUnavailableError.isInstance(new Copy('down')));
  for (const value of [null, undefined, 'StoreUnavailableError', 42]) assert.ok(!AgentError.isInstance(value));
});
