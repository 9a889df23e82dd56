/** The run's output contract: a JSON Schema the final answer, parsed as JSON, must meet. */
import { z } from 'zod';

export type OutputContract = z.ZodType;

export function parseOutputContract(schema: Record<string, unknown> | undefined): OutputContract | null {
  return schema ? z.fromJSONSchema(schema) : null;
}

/** Why `answer` breaks the contract, or null when it meets it; the text is for the model. */
export function contractError(contract: OutputContract, answer: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.trim());
  } catch (error) {
    return `the answer is not JSON (${(error as Error).message})`;
  }
  const result = contract.safeParse(parsed);
  return result.success ? null : z.prettifyError(result.error).replace(/\n/g, '; ');
}
