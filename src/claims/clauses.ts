/**
 * An answer split into clauses, the unit the claim check reads. Pure.
 */

export interface Clause {
  text: string;
  /** The sentence it belongs to ends with "?". */
  question: boolean;
}

/**
 * Splits an answer into clauses: sentences (., !, ? followed by a space; line breaks), then ";", dashes
 * and contrastive conjunctions (but, however, although, though, whereas, yet) start a new clause.
 * Markdown emphasis, code marks and list bullets are dropped first.
 */
export function splitClauses(answer: string): Clause[] {
  const text = joinNameLists(
    answer
      .replace(/[\u2018\u2019\u02bc]/g, "'")
      .replace(/[\u201c\u201d]/g, '"')
      .replace(/\*\*|__|`/g, ''),
  ).replace(/^[ \t]*(?:[-*+•]|\d+[.)]|#{1,6})[ \t]+/gm, '');
  const clauses: Clause[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\s*\n+\s*/)) {
    if (!sentence.trim()) continue;
    const question = /\?\s*$/.test(sentence);
    for (const part of sentence.split(/\s*;\s*|\s*[\u2014\u2013]\s*|\s+-{1,2}\s+|,?\s+(?=\b(?:but|however|although|though|whereas|yet)\b)/i)) {
      if (part && part.trim()) clauses.push({ text: part.trim(), question });
    }
  }
  return clauses;
}

const BULLET = /^[ \t]*(?:[-*+•]|\d+[.)])[ \t]+(.*)$/;
const BARE_NAME = /^[\w./@#-]+(?:\s*\([^)]*\))?[.,;]?$/;

/** "Deleted files:" followed by bullets that are bare names → one line "Deleted files: a, b". */
function joinNameLists(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!/:\s*$/.test(line)) {
      out.push(line);
      continue;
    }
    const items: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const item = BULLET.exec(lines[j]!)?.[1]?.trim();
      if (!item || !BARE_NAME.test(item)) break;
      items.push(item.replace(/[.,;]$/, ''));
    }
    if (!items.length) {
      out.push(line);
      continue;
    }
    out.push(`${line.trimEnd()} ${items.join(', ')}`);
    i = j - 1;
  }
  return out.join('\n');
}
