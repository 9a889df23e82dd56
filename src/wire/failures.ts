/**
 * Every `ApplicationFailure` type the harness raises (activities and the workflow), in one table: the
 * strings are what Temporal records and clients see, so they never change.
 */
export const FailureType = {
  /** The provider refused the request (4xx other than 408/409/429): retrying will not help. */
  modelRequestRejected: 'ModelRequestRejected',
  /** The provider could not be reached or answered 408/409/429/5xx: retried by Temporal. */
  modelUnavailable: 'ModelUnavailable',
  /** The worker has no implementation for a tool the workflow knows. */
  toolNotImplemented: 'ToolNotImplemented',
  /** The run's workspace is outside this worker's workspace roots: the run ends `failed`. */
  workspaceRefused: 'WorkspaceRefused',
  /** The model's reply is larger than the harness accepts (MAX_REPLY_CHARS). */
  modelReplyTooLarge: 'ModelReplyTooLarge',
  /** The run asked for a scripted model this worker does not serve. */
  scriptedModelRefused: 'ScriptedModelRefused',
  /** A provider model asked of a worker that has no provider configured (no OPENAI_API_KEY/OPENAI_BASE_URL): the run fails at once. */
  modelProviderMissing: 'ModelProviderMissing',
  /** The store (AGENT_STORE_URL) cannot be reached: retried until it is back. */
  storeUnavailable: 'StoreUnavailable',
  /** Stored content does not match its hash: the run fails rather than use a different context. */
  storeIntegrity: 'StoreIntegrity',
  /** A tool asked to be retried (transient failure). */
  toolRetryable: 'ToolRetryable',
  /**
   * A model call made as a local activity heard of the run's cancel (through the store, or by asking
   * Temporal) and stopped; the workflow, whose task the call held, has not seen the cancel yet and waits for
   * it (`model-call.ts`). Also a model call or tool made as an activity that stopped for a stop announced
   * in the store which Temporal did not follow with a cancel within 10 s (`activities/heartbeats.ts`).
   */
  runCancelRequested: 'RunCancelRequested',
  /** A model call made as a local activity reached the run's wall-time deadline and stopped (`model-call.ts`). */
  wallTimeUp: 'WallTimeUp',
  /** The run's input is not valid (the workflow's own check; clients check first: InvalidRunInputError). */
  invalidRunInput: 'InvalidRunInput',
  /** Carried state of a version this workflow code does not know: run the workers of the code that wrote it. */
  unknownCarriedStateVersion: 'UnknownCarriedStateVersion',
  /** A transcript link the run names is not in this worker's store: retried, in case another worker's store has it. */
  transcriptMissing: 'TranscriptMissing',
  /** A replay's recorded tool result could not be read from the scripted model server. */
  recordingUnreadable: 'RecordingUnreadable',
  /** A tool activity's input lacks what every caller sends (its runKey). */
  invalidToolInput: 'InvalidToolInput',
} as const;

/** Every `ApplicationFailure` type the harness raises. */
export type FailureTypeName = (typeof FailureType)[keyof typeof FailureType];

/** How a failure reads in the tool message the model gets. */
export function toolErrorText(message: string): string {
  return `Error: ${message}`;
}
