/**
 * Frames that make a claim word no account of the run's own effect, whatever the word: it stands inside a
 * quotation, inside what a stop or cancellation came before ("the run was cancelled before the note was
 * delivered"), in a state another's act caused ("is gone now that you restarted the service", "was created
 * when the worker crashed"), or as the second verb of another subject ("logrotate has rotated and
 * compressed app.log"). Each reads the grammar around the word, not the word. Pure.
 */

/** A word inside double quotes that are not the whole clause: a label, a signature, a counter's name ("sent"). */
export function quoted(text: string, start: number, end: number): boolean {
  const before = text.slice(0, start);
  const opens = (before.match(/"/g) ?? []).length;
  if (opens % 2 === 0) return false;
  const close = text.indexOf('"', end);
  if (close < 0) return false;
  // (…a short quotation: a name or a phrase, not a clause the answer only put in quotes.)
  const inside = text.slice(before.lastIndexOf('"') + 1, close);
  return inside.split(/\s+/).length <= 6 && inside.trim().length < text.trim().length - 2;
}

/** What stopped, and "before"/"while"/"until" what: the run was cancelled before it was delivered. */
// (A dot inside a name, "ops@x.io", ends nothing.)
const STOPPED_BEFORE = /\b(?:cancell?ed|stopped|interrupted|ended|died|crashed|failed|timed out|halted|aborted|killed|cut (?:off|short)|denied|rejected)\b(?:[^.;!?]|\.(?=\w))*?\b(?:before|while|until|as)\s+(?:[^.;!?,]|\.(?=\w))*?$/i;

/** The word is inside what a stop came before or interrupted: it did not happen. */
export function stoppedBefore(text: string, start: number): boolean {
  return STOPPED_BEFORE.test(text.slice(0, start));
}

/** "now that you …", "since the worker crashed", "when Ana restarted it": a cause of another's doing. */
const CAUSED = /^\s*[^.;!?]{0,40}?\b(?:now that|ever since|since|when|after|because|as soon as|once)\s+(?:you|he|she|they|someone|[A-Z][a-z]+|the\s+(?:\w+\s+){0,2}\w+)\s+(?:\w+\s+){0,2}?(?:\w+ed|ran|went|came|broke|took|made|fell|got|put|set|shut|restarted|crashed|pinned|fixed)\b/;

/**
 * A state or a passive told with its cause, the act of someone or something else: "The error is gone now that
 * you restarted the service", "errors.log was created when the worker crashed". Not when the writer is the
 * subject ("I deleted it after the deploy finished").
 */
export function causedByAnother(text: string, start: number, end: number, passiveOrState: boolean): boolean {
  if (!passiveOrState || /\b(?:i|we)\b/i.test(text.slice(0, start))) return false;
  const cause = CAUSED.exec(text.slice(end));
  return !!cause && !/\b(?:i|we|me|us)\b/i.test(cause[0]);
}

/**
 * The second of two verbs that share another subject: "logrotate has already rotated and compressed app.log".
 * (Not the writer's: "I rotated and compressed it"; not a passive: "were rotated and deleted".)
 */
export function sharedOtherSubject(text: string, start: number): boolean {
  const m = /^\s*(?:[\w-]+:\s+)?([A-Za-z][\w.-]*(?:\s+[\w.-]+){0,2}?)\s+(?:has|have|had)?\s*(?:already\s+|just\s+|also\s+)?(\w+ed)\s+(?:\S+\s+){0,3}?(?:and|,)\s*(?:then\s+|also\s+)?$/i.exec(text.slice(0, start));
  if (!m) return false;
  const subject = m[1]!.toLowerCase();
  return !/\b(?:i|we|me|us|my|our|you|it|they|this|that)\b/.test(subject) && !/^(?:the|a|an|then|also|and|just|first|finally)$/.test(subject);
}

/** A time before this run: "last week", "yesterday", "in 2021", "on Tuesday", "two days ago", "last week's meeting". */
export const BEFORE_THE_RUN = /\b(?:last (?:week|month|year|night|quarter|sprint|friday|monday|tuesday|wednesday|thursday|saturday|sunday)(?!'s)|yesterday(?!'s)|the day before|(?:\d+|a|an|two|three|few|several) (?:days?|weeks?|months?|years?) ago|in (?:19|20)\d\d|earlier this (?:week|month|year)|on (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/i;

/**
 * An event dated before this run and told of someone or something else ("The deploy went out last week per
 * the changelog", "the idea was dropped in last week's meeting"): history, not the run's account. (The writer's
 * own past acts, "I sent it yesterday", are left to the rest of the check.)
 */
export function datedHistory(text: string, start: number, end: number): boolean {
  // (After the word: before it, a date names the thing, "Last year's logs have been cleared".)
  // (…with a subject of its own: a headline, "Billed cust_9 for last month", is the writer's.)
  const before = text.slice(0, start).replace(/^[^:]*:\s*/, '');
  return BEFORE_THE_RUN.test(text.slice(end)) && /[a-z]{2,}/i.test(before) && !/\b(?:i|we|me|us)\b/i.test(before) && !/\bby (?:me|us)\b/i.test(text);
}

/** Things that are no object of a tool: ideas, plans and options ("the idea … was dropped", "removed from consideration"). */
const ABSTRACT = /\b(?:idea|plan|proposal|option|suggestion|topic|agenda item|requirement|concern|approach|hypothesis|theory|assumption|possibility|consideration|the running|the list of options)\b/i;

/** The claim's word acts on an idea or a plan, not a thing a tool touches. */
export function abstractTheme(text: string, start: number, end: number): boolean {
  const subject = /(?:^|[,;:]\s*)(?:the|this|that|my|our|your|their|an?)\s+([\w-]+)(?:\s+(?:of|to|for|about)\s+[^,;:]*?)?\s+(?:was|were|has been|have been|is|are|got)\s+(?:\w+ly\s+)?$/i.exec(text.slice(0, start));
  if (subject && ABSTRACT.test(subject[1]!)) return true;
  return /^\s+(?:from consideration|from the (?:plan|list|agenda|shortlist|running|options)\b|(?:the|that|this|our|my) (?:idea|plan|proposal|option|approach)\b)/i.test(text.slice(end));
}
