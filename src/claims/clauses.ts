/**
 * An answer split into clauses, the unit the claim check reads; markdown (tables, task lists, headings over
 * lists of names, emphasis, code spans) read as a reader reads it. Pure.
 */
import nlp from 'compromise';
import { KIND_WORDS } from './claim-kinds.ts';
import { isObjectLike } from './claim-objects.ts';

export interface Clause {
  text: string;
  /** The sentence it belongs to ends with "?". */
  question: boolean;
  /** The sentence is a counterfactual condition ("Had the deletion been approved, …"): nothing in it is an account. */
  counterfactual?: boolean;
  /** The rest of its sentence takes it back ("I ran `git pull` but it failed"). */
  takenBack?: boolean;
  /** The sentence it belongs to. */
  sentence?: string;
}

/** Stand-ins for a dash, a semicolon or a colon inside a code span while the answer is split (round 7). */
const SPAN_MARKS: Readonly<Record<string, string>> = { '-': '\uE002', ';': '\uE003', '\u2014': '\uE004', '\u2013': '\uE005' };

/** "`DELETE … WHERE last_seen < now() - interval '1 year'`": a command's dash or semicolon ends no clause. */
function protectSpans(answer: string): string {
  return answer.replace(/`[^`\n]+`/g, (span) => span.replace(/\s[-\u2014\u2013]{1,2}\s|;/g, (m) => [...m].map((ch) => SPAN_MARKS[ch] ?? ch).join('')));
}

function restored(text: string): string {
  return text.replace(/[\uE002-\uE005]/g, (ch) => Object.keys(SPAN_MARKS).find((k) => SPAN_MARKS[k] === ch)!);
}

/**
 * Splits an answer into clauses: sentences (., !, ? followed by a space; line breaks), then ";", dashes
 * and contrastive conjunctions (but, however, although, though, whereas, yet) start a new clause.
 * Markdown emphasis, code marks and list bullets are dropped first.
 */
export function splitClauses(answer: string): Clause[] {
  const text = nameLines(
    joinNameLists(
      checklists(
        checkMarks(tableRows(loneMarks(namesAsked(notTheAnswers(protectSpans(answer).replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d]/g, '"'))))))
          // Marks that decorate a line (✅, ✔, 🗑): the words say what they mean.
          .replace(/[\u2705\u2714\u2713\u2611\u{1F5D1}\u{1F4E7}\u{1F4E8}\u{1F680}]\uFE0F?\s*/gu, '')
          .replace(/\*\*|__|`/g, ''),
      ),
    ),
  ).replace(/^[ \t]*(?:[-*+•]|\d+[.)]|#{1,6})[ \t]+/gm, '');
  const clauses: Clause[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\s*\n+\s*/)) {
    if (!sentence.trim()) continue;
    const question = /\?\s*$/.test(sentence);
    // "Had the deletion been approved, …", "Were it approved, …": a condition contrary to fact.
    // "Had I sent it, it would have gone to …": inverted with "I"/"we" too, when the rest says what would have been.
    const counterfactual =
      /^(?:had|were|should)\s+(?!(?:i|we)\s+(?:not\s+)?(?:deleted|sent|written|removed)\b)[^,]{3,80},/i.test(sentence.trim()) ||
      /^(?:had|were)\s+(?:i|we)\s+[^,]{3,80},[^.;]*\b(?:would|could|might)(?:\s+not|n't)?\s+have\b/i.test(sentence.trim());
    const { main, asides } = asidesOf(appositions(sentence));
    const parts = [...main.split(/\s*;\s*|\s*[\u2014\u2013]\s*|\s+-{1,2}\s+|(?<!\b(?:all|everything|everyone|everybody|anything|nothing|none)),?\s+(?=\b(?:but|however|although|though|whereas|yet)\b)/i), ...asides];
    const mainParts = parts.length - asides.length;
    parts.forEach((part, i) => {
      if (!part || !part.trim()) return;
      // "I ran `git pull` but it failed": the rest of the sentence takes the claim back.
      const takenBack = i + 1 < parts.length && i < parts.length - asides.length && TAKEN_BACK.test(parts[i + 1]!.trim());
      // "I must have sent it an hour ago — maybe check his spam folder?": only the part that asks is a question.
      // (A part the next one continues with "but …" stays under the sentence's question mark.)
      const asks = question && (i >= mainParts - 1 || QUESTION_START.test(part.trim()) || /^(?:but|however|although|though|whereas|yet)\b/i.test(parts[i + 1]?.trim() ?? ''));
      clauses.push({ text: restored(part.trim()), question: asks, sentence: restored(sentence), ...(counterfactual ? { counterfactual } : {}), ...(takenBack ? { takenBack } : {}) });
    });
  }
  return clauses;
}

/**
 * Lines that are not the answer's own account: comments inside a fenced code block ("# deleted a.log
 * earlier"), and a quotation under a line that introduces a draft or another's words ("The email I would
 * send:" / "> Hi Bob, I deleted a.log.").
 */
function notTheAnswers(answer: string): string {
  const lines = answer.split('\n');
  let fenced = false;
  let quoted = false;
  return lines
    .map((line, i) => {
      if (/^\s*(?:```|~~~)/.test(line)) {
        fenced = !fenced;
        return line;
      }
      if (fenced) return /^\s*(?:#|\/\/|--|;)/.test(line) ? '' : line;
      if (/^\s*>/.test(line)) {
        const intro = lines.slice(0, i).reverse().find((l) => l.trim() && !/^\s*>/.test(l)) ?? '';
        quoted = /:\s*$/.test(intro) && /\b(?:would|could|draft|drafted|wrote|write|said|says|reads|proposed|suggested|template|below|like this|as follows|quote|asked|message)\b/i.test(intro);
        return quoted ? '' : line;
      }
      return line;
    })
    .join('\n');
}

/** "Both files — notes.md and todo.md — are written": names between dashes are an apposition, read as a parenthesis. */
function appositions(sentence: string): string {
  return sentence.replace(/\s+[\u2014\u2013]\s+([^\u2014\u2013]{3,160}?)\s+[\u2014\u2013]\s+/g, (whole, inner: string) =>
    inner.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).every((n) => isObjectLike(n.trim())) ? ` (${inner}) ` : whole,
  );
}

/** A part of a sentence that asks: an inverted auxiliary or a question word first ("Should I …", "want me to …"). */
const QUESTION_START = /^(?:and\s+|or\s+|so\s+)?(?:should|shall|can|could|would|will|do|does|did|is|are|was|were|have|has|want|what|which|who|why|how|where|when|any|anything|or)\b/i;

/** The next clause says the claimed thing failed or did not happen: "but it failed", "but the approval was declined". */
// (…or with the subject left out, the same as the part before: "`pytest -q` ran but failed", round 7.)
const TAKEN_BACK = /^(?:but|however|yet)\s+(?:then\s+|ultimately\s+|eventually\s+)?(?:failed|errored|crashed|timed out|(?:was|got)\s+(?:denied|rejected|declined|blocked|cancell?ed|interrupted))\b|^(?:but|however|though|yet)\b[\s,]*(?:it|that|this|they|[a-z]+ing\s+(?:it|them|that|this)|the\s+(?:command|call|request|attempt|run|send|deletion|write|approval|change|step))\s+(?:\w+\s+)?(?:failed|errored|was\s+(?:denied|rejected|declined|blocked|cancell?ed|interrupted)|were\s+(?:denied|rejected|declined|blocked|cancell?ed)|did(?:n't| not)|never|timed out|crashed|is\s+(?:still\s+)?(?:pending|waiting))\b/i;

/** A table cell that is only a check mark or a cross says done or failed ("| ORD-881 | ✅ |" under "Refund"). */
/**
 * "APT-88? Squared away.", "old.log? Binned.": a name asked and answered at once is a label and its value, not a
 * question (round 9) — a "question" of at most three words, one of them an identifier (a figure or a mark in it),
 * with no verb ("Deleted access.log?" still asks), right before a sentence that asks nothing, reads "APT-88: Squared away.".
 */
function namesAsked(text: string): string {
  return text.replace(/(^|[.!:]\s+|\n[ \t]*(?:[-*+•][ \t]+)?)((?:[^\s?!.]+[ \t]+){0,2}[^\s?!]*[\w][^\s?!]*)\?[ \t]+(?=[A-Z][^?\n]*(?:\n|$))/g, (all, before: string, name: string) =>
    /[\d@#/_]|\w[.-]\w/.test(name) && !nlp(name.replace(/\S*(?:[\d@#/_]|\w[.-]\w)\S*/g, ' ')).has('#Verb') && !/^(?:who|what|which|where|when|why|how|is|are|was|were|do|does|did|can|could|should|shall|will|would|may|might|any|anything)\b/i.test(name) ? `${before}${name}: ` : all,
  );
}

function loneMarks(text: string): string {
  return text.replace(/(?<=\|)[ \t]*[\u2705\u2714\u2713\u2611]\uFE0F?[ \t]*(?=\|)/gu, ' done ').replace(/(?<=\|)[ \t]*[\u274c\u2717\u2718]\uFE0F?[ \t]*(?=\|)/gu, ' failed ');
}

/**
 * Asides in parentheses that say something of their own ("I removed a.log (b.log is untouched)", "(the
 * one to frank@… was rejected)") are read as clauses apart, so their names are not the claim's objects.
 * A parenthesis of names or figures ("Ana (ana@example.com)", "(`make`, exit 0)") stays where it is.
 */
function asidesOf(sentence: string): { main: string; asides: string[] } {
  const asides: string[] = [];
  // "old.log (removed)": a name and its fate.
  sentence = sentence.replace(/([\w./@#+-]+)\s+\(((?:[a-z]+ed|sent|done|written|gone|paid|run|built))\)/gi, '$1 $2');
  const main = sentence.replace(/\s*\(([^()]{3,})\)/g, (whole, inner: string) => {
    if (!/\b(?:is|are|was|were|has|have|had|been|still|not|never|n't|failed|rejected|denied|pending|waiting|untouched|kept|left|skipped)\b/i.test(inner) || inner.trim().split(/\s+/).length < 3) return whole;
    asides.push(inner.trim());
    return '';
  });
  return { main, asides };
}

/**
 * Markdown table rows read as sentences: `| debug.log | 4.2 MB | deleted |` → "debug.log 4.2 MB deleted."
 * The header row (the one above the `---` row) and the `---` row are dropped, but read: a "yes" or a check
 * mark under a column named by a participle ("Sent?") says that participle ("dan@… Sent"); under a "Result"
 * or "Status" column it says the row's action was done ("| Write | notes.md | ✅ |" → "Wrote notes.md").
 */
function tableRows(text: string): string {
  const lines = text.split('\n');
  const isRow = (l: string | undefined) => l !== undefined && /^\s*\|.*\|\s*$/.test(l);
  const isRule = (l: string | undefined) => l !== undefined && /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(l);
  const cellsOf = (line: string) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  let header: string[] = [];
  return lines
    .flatMap((line, i) => {
      if (!isRow(line) && !isRule(line)) {
        header = [];
        return [line];
      }
      if (isRule(line)) return [];
      if (isRule(lines[i + 1])) {
        header = cellsOf(line).map((h) => h.replace(/[?:*`]/g, '').trim().toLowerCase());
        return [];
      }
      // A row number under "#" or "Step" is no word of the row ("| 2 | Scale | search → 3 |").
      const raw = cellsOf(line);
      const keep = raw.map((c, j) => !(/^\d{1,3}\.?$/.test(c) && /^(?:#|no\.?|n|step|)$/.test(header[j] ?? '')));
      const cells = raw.filter((_c, j) => keep[j]);
      const heads = header.filter((_h, j) => keep[j] ?? true);
      const yes = (c: string) => /^(?:yes|y|done|ok|okay|success|succeeded|true|x|\u2705|\u2714\uFE0F?|\u2713|\u2611\uFE0F?)$/i.test(c.replace(/\s+/g, ''));
      const out = cells.map((cell, j) => {
        const head = heads[j] ?? '';
        if (!yes(cell) || !head) return cell;
        if (/^(?:result|status|outcome|state|done|ok)$/.test(head)) return 'done';
        return /ed$|^(?:sent|written|done|run|built|paid|made|gone)$/.test(head) ? head : cell;
      });
      // A row whose action cell is a bare verb and whose result says done: "Wrote notes/today.md".
      if (out.includes('done') && out.some((c, j) => /^(?:action|step|task|what|operation|change)$/.test(heads[j] ?? '') && /^[a-z]+(?:\s|$)/i.test(c))) {
        const j = out.findIndex((c, k) => /^(?:action|step|task|what|operation|change)$/.test(heads[k] ?? ''));
        const [verb, ...rest] = out[j]!.split(/\s+/);
        out[j] = [pastOf(verb!, true), ...rest].join(' ');
        out.splice(out.indexOf('done'), 1);
      }
      return [`${out.filter(Boolean).join(' ')}.`];
    })
    .join('\n');
}

/**
 * Lines that name an object, then say what became of it: "`a.tmp` — deleted" reads "a.tmp deleted";
 * "src/index.ts: updated the import order" reads "updated the import order src/index.ts".
 */
function nameLines(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const dash = /^([ \t]*(?:[-*+•]|\d+[.)])?[ \t]*)([\w./@#+-]+\.?[\w]*)\s+[\u2014\u2013-]{1,2}\s+([a-z]+(?:\s+[a-z]+)?)\s*[.!]?\s*$/i.exec(line);
      if (dash) return `${dash[1]}${dash[2]} ${dash[3]}`;
      const colon = /^([ \t]*(?:[-*+•]|\d+[.)])?[ \t]*)((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,7}|[\w.+-]+@[\w-]+(?:\.[\w-]+)+):\s+([a-z]+ed\b.*)$/i.exec(line);
      if (colon) return `${colon[1]}${colon[3]!.replace(/[.!]\s*$/, '')} ${colon[2]}`;
      // "Refund for ch_55: issued." reads "Refund for ch_55 issued."
      const status = /^(.{3,80}?):\s+([a-z]+(?:ed|en)|sent|done|paid|run|built|gone|made|put|set)\s*([.!]?)\s*$/i.exec(line);
      if (status) return `${status[1]} ${status[2]}${status[3]}`;
      return line;
    })
    .join('\n');
}

const CHECK = /[\u2705\u2714\u2713\u2611]\uFE0F?/u;
const KIND_VERBS = new Set(Object.values(KIND_WORDS).flatMap((k) => [...k.verbs, ...(k.weakVerbs ?? [])].map((v) => v.split(/\s+/)[0]!)));

/**
 * A line with a check mark says it was done: "1. Delete old.log ✔" reads "Deleted old.log", "Deletion of
 * old.log: ✅" reads "Deletion of old.log: done".
 */
function checkMarks(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!CHECK.test(line)) return line;
      // "- a.log ✅" under a heading: the name, and its mark as a status the heading's list keeps.
      const named = /^([ \t]*(?:[-*+•]|\d+[.)])[ \t]+)([\w./@#-]+)[ \t]*[\u2705\u2714\u2713\u2611]\uFE0F?\s*$/u.exec(line);
      if (named) return `${named[1]}${named[2]} (done)`;
      const colon = /^(.*\S):\s*[\u2705\u2714\u2713\u2611]\uFE0F?\s*$/u.exec(line);
      if (colon) return `${colon[1]}: done`;
      const lead = /^([ \t]*(?:[-*+•]|\d+[.)])?[ \t]*(?:[\u2705\u2714\u2713\u2611]\uFE0F?\s*)?)([A-Za-z]+)(\s.*)$/u.exec(line);
      // Only a line that starts with its verb ("Delete old.log ✔"), not one that has one ("Report written ✅").
      if (!lead || /\b(?:[a-z]+ed|written|sent|done|gone|paid|run|built|made)\b/i.test(lead[3]!)) return line;
      const past = pastOf(lead[2]!);
      const verb = past !== lead[2] ? past : KIND_VERBS.has(lead[2].toLowerCase()) ? pastOf(lead[2], true) : lead[2];
      return `${lead[1]}${verb}${lead[3]}`;
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
function pastOf(word: string, regular = false): string {
  const past = (nlp(word).verbs().conjugate()[0] as { PastTense?: string } | undefined)?.PastTense;
  if (past && !/\s/.test(past)) return past;
  // An action cell is a verb even when the lexicon reads an adjective ("clear"): the regular past.
  if (!regular || /ed$/i.test(word)) return word;
  return /e$/i.test(word) ? `${word}d` : /[^aeiou]y$/i.test(word) ? `${word.slice(0, -1)}ied` : `${word}ed`;
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
    // (…or a line of one or two words, a bold label once its marks are gone: "Removed".)
    if (!/:\s*$/.test(line) && !/^\s*#{1,6}\s+\S/.test(line) && !/^\s*[A-Za-z]+(?:\s+[a-z]+)?\s*$/.test(line)) {
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
