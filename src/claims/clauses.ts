/**
 * An answer split into clauses, the unit the claim check reads; markdown (tables, task lists, headings over
 * lists of names, emphasis, code spans) read as a reader reads it. Pure.
 */
import nlp from 'compromise';

export interface Clause {
  text: string;
  /** The sentence it belongs to ends with "?". */
  question: boolean;
  /** The sentence is a counterfactual condition ("Had the deletion been approved, …"): nothing in it is an account. */
  counterfactual?: boolean;
}

/**
 * Splits an answer into clauses: sentences (., !, ? followed by a space; line breaks), then ";", dashes
 * and contrastive conjunctions (but, however, although, though, whereas, yet) start a new clause.
 * Markdown emphasis, code marks and list bullets are dropped first.
 */
export function splitClauses(answer: string): Clause[] {
  const text = joinNameLists(
    checklists(
      tableRows(
        answer
          .replace(/[\u2018\u2019\u02bc]/g, "'")
          .replace(/[\u201c\u201d]/g, '"')
          // Marks that decorate a line (✅, ✔, 🗑): the words say what they mean.
          .replace(/[\u2705\u2714\u2611\u{1F5D1}\u{1F4E7}\u{1F4E8}\u{1F680}]\uFE0F?\s*/gu, '')
          .replace(/\*\*|__|`/g, ''),
      ),
    ),
  ).replace(/^[ \t]*(?:[-*+•]|\d+[.)]|#{1,6})[ \t]+/gm, '');
  const clauses: Clause[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\s*\n+\s*/)) {
    if (!sentence.trim()) continue;
    const question = /\?\s*$/.test(sentence);
    // "Had the deletion been approved, …", "Were it approved, …": a condition contrary to fact.
    const counterfactual = /^(?:had|were|should)\s+(?!(?:i|we)\s+(?:not\s+)?(?:deleted|sent|written|removed)\b)[^,]{3,80},/i.test(sentence.trim());
    for (const part of sentence.split(/\s*;\s*|\s*[\u2014\u2013]\s*|\s+-{1,2}\s+|,?\s+(?=\b(?:but|however|although|though|whereas|yet)\b)/i)) {
      if (part && part.trim()) clauses.push({ text: part.trim(), question, ...(counterfactual ? { counterfactual } : {}) });
    }
  }
  return clauses;
}

/**
 * Markdown table rows read as sentences: `| debug.log | 4.2 MB | deleted |` → "debug.log 4.2 MB deleted."
 * The header row (the one above the `---` row) and the `---` row are dropped.
 */
function tableRows(text: string): string {
  const lines = text.split('\n');
  const isRow = (l: string | undefined) => l !== undefined && /^\s*\|.*\|\s*$/.test(l);
  const isRule = (l: string | undefined) => l !== undefined && /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(l);
  return lines
    .flatMap((line, i) => {
      if (!isRow(line) && !isRule(line)) return [line];
      if (isRule(line) || isRule(lines[i + 1])) return [];
      const cells = line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim()).filter(Boolean);
      return [`${cells.join(' ')}.`];
    })
    .join('\n');
}

/** Task lists: `- [x] delete a.log` says it was done ("done: deleted a.log"); `- [ ] …` that it was not. */
function checklists(text: string): string {
  return text
    .replace(/^([ \t]*(?:[-*+]|\d+[.)])[ \t]+)\[[xX]\][ \t]+(\S+)(.*)$/gm, (_, bullet: string, verb: string, rest: string) => `${bullet}${pastOf(verb)}${rest}`)
    .replace(/^([ \t]*(?:[-*+]|\d+[.)])[ \t]+)\[ \][ \t]+(.*)$/gm, (_, bullet: string, rest: string) => `${bullet}not done: ${rest}`);
}

/** "delete" → "deleted", "send" → "sent" (the `compromise` lexicon); a word that is no verb stays. */
function pastOf(word: string): string {
  const past = (nlp(word).verbs().conjugate()[0] as { PastTense?: string } | undefined)?.PastTense;
  return past && !/\s/.test(past) ? past : word;
}

const BULLET = /^[ \t]*(?:[-*+•]|\d+[.)])[ \t]+(.*)$/;
const BARE_NAME = /^[\w./@#-]+(?:\s*\([^)]*\))?[.,;]?$/;

/** "Deleted files:" followed by bullets that are bare names → one line "Deleted files: a, b". */
function joinNameLists(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // "Deleted files:" or a heading ("### Deleted") over a list of bare names.
    if (!/:\s*$/.test(line) && !/^\s*#{1,6}\s+\S/.test(line)) {
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
    out.push(`${line.trimEnd().replace(/^\s*#{1,6}\s+(.*?):?$/, '$1:')} ${items.join(', ')}`);
    i = j - 1;
  }
  return out.join('\n');
}
