/**
 * Whether a provider's refusal says the request is over the model's context window, and the figures it
 * gives: OpenAI's `context_length_exceeded` code, and the wordings of other OpenAI-compatible servers
 * (vLLM, llama.cpp, Ollama, LiteLLM proxies, Anthropic's and Mistral's compatible endpoints).
 */
import OpenAI from 'openai';

/** What the provider said of the window: its size and the request's, when its message gives them. */
export interface ContextRefusal {
  windowTokens?: number;
  requestedTokens?: number;
}

const CODES = new Set(['context_length_exceeded', 'context_window_exceeded', 'string_above_max_length']);

const WORDINGS = [
  /maximum context length/i,
  /context[ _-]?(length|window)[ _-]?exceeded/i,
  /exceeds? (the )?([\w']+ ){0,2}context (length|window|size)/i,
  /(prompt|input) is too long/i,
  /too many (input )?tokens/i,
  /requested \d+ tokens.*(context|maximum)/i,
  /context size has been exceeded/i,
];

/** The refusal's figures when `error` is a 4xx that says the context is too long; null otherwise. */
export function contextRefusal(error: unknown): ContextRefusal | null {
  if (!(error instanceof OpenAI.APIError) || typeof error.status !== 'number' || error.status < 400 || error.status >= 500) return null;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const message = error.message;
  if (!(code !== undefined && CODES.has(code)) && !WORDINGS.some((w) => w.test(message))) return null;
  return figuresOf(message);
}

/** The window and request sizes in a refusal's words, as far as they are there. */
export function figuresOf(message: string): ContextRefusal {
  const window = /maximum context length is (\d+)|context (?:length|window|size)(?: of| is)? (\d+)/i.exec(message);
  const requested = /resulted in (\d+) tokens|requested (\d+) tokens|prompt (?:has|contains) (\d+) tokens|(\d+) tokens? (?:>|exceeds)/i.exec(message);
  const number = (m: RegExpExecArray | null) => {
    const found = m?.slice(1).find((g) => g !== undefined);
    return found === undefined ? undefined : Number(found);
  };
  const windowTokens = number(window);
  const requestedTokens = number(requested);
  return { ...(windowTokens !== undefined ? { windowTokens } : {}), ...(requestedTokens !== undefined ? { requestedTokens } : {}) };
}
