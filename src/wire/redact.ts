/** Masks the fields a tool declares in `redact`, wherever its arguments are shown. */
export const REDACTED = '[redacted]';

export function redactFields(value: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  if (!fields.length) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const field of fields) if (field in copy) copy[field] = REDACTED;
  return copy;
}

/** The same for a raw JSON argument string (as the model sent it); unparseable text is masked whole. */
export function redactJsonText(text: string, fields: readonly string[]): string {
  if (!fields.length) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return JSON.stringify(redactFields(parsed as Record<string, unknown>, fields));
  } catch {
    // fall through: never show what could not be parsed
  }
  return JSON.stringify(REDACTED);
}
