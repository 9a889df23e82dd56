/**
 * A provider's answers as real ones give them, picked by a word in the goal: errors with their codes and
 * headers, a refusal, usage with cached and reasoning tokens.
 */
import type { ScriptedMessage, ScriptedReply } from '../../src/scripted-model/scenario.ts';

const answers: Record<string, ScriptedReply> = {
  'openai-context': {
    status: 400,
    errorCode: 'context_length_exceeded',
    error: "This model's maximum context length is 128000 tokens. However, your messages resulted in 190000 tokens. Please reduce the length of the messages.",
  },
  'llama-context': { status: 400, error: 'the request exceeds the available context size, try increasing it' },
  'bad-key': { status: 401, error: 'Incorrect API key provided: sk-test-secret-0123456789. You can find your API key at the provider.' },
  'no-model': { status: 404, error: 'The model `gpt-9` does not exist or you do not have access to it.', errorCode: 'model_not_found' },
  'bad-request': { status: 400, error: "Invalid type for 'messages[0].content': expected a string." },
  'slow-down': { status: 429, error: 'Rate limit reached.', headers: { 'retry-after-ms': '250', 'retry-after': '20' } },
  'do-not-retry': { status: 503, error: 'Overloaded.', headers: { 'x-should-retry': 'false' } },
  'do-retry': { status: 400, error: 'Try again.', headers: { 'x-should-retry': 'true' } },
  refusal: { refusal: "I'm sorry, I can't help with that." },
  cached: { content: 'answered from the cache', usage: { promptTokens: 10_000, completionTokens: 2_000, cachedPromptTokens: 8_000, reasoningTokens: 1_500 } },
};

export default (_turn: number, messages: ScriptedMessage[]): ScriptedReply | undefined => {
  const goal = messages.find((m) => m.role === 'user')?.content ?? '';
  const word = Object.keys(answers).find((w) => goal.includes(`[${w}]`));
  return word ? answers[word] : undefined;
};
