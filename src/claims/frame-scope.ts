/**
 * Frame words where they do not govern the mention (round 9): a frame must scope over the act told of the
 * mentioned thing, not sit in an idiom or another role beside it. These blank such words before the frames are
 * read, by the word's role in its sentence, not by a list of the sentences it appears in. Pure.
 */

/**
 * "you" framed the mention as the reader's doing ("you declined", "you can delete it"). It does not when the
 * reader is the one asked or served: the subject of a verb of asking or wishing in a clause of manner or a
 * relative clause ("as you asked", "like you wanted", "the slot you requested"), or the object of a verb or a
 * preposition ("kept you posted", "sorted it for you", "sent you the figures") — "for you to …" still frames.
 */
const READER_ASKED = /(?:\b(?:just |exactly )?(?:as|like|the way|what|that|which)\s+)?\byou(?:'d)?\s+(?:had\s+|have\s+|originally\s+|already\s+)?(?:asked(?:\s+(?:for|me))?|requested|wanted|wished|suggested|mentioned|specified|described|needed|expected|hoped(?:\s+for)?|instructed|had in mind|were after|were hoping for|told me)\b/gi;
const READER_SERVED = /\b(?:for|to|with|kept|keep|keeping|let|lets|got|get|gets|sent|send|sending|told|tell|telling|give|gave|giving|show|showed|remind|reminded|update|updated|saved|save|spared|spare|thank|copied|cc'?d|ping|pinged|email|emailed|message|messaged|notify|notified|brief|briefed|owe|bring|brought|walk|walked|point|pointed)\s+you\b(?!\s+to\b)/gi;

/** The text with each "you" that is no actor of what it tells blanked (a clause of asking as a whole: its verb, "wanted", is no plan of ours either). */
export function withoutReaderServed(text: string): string {
  if (!/\byou\b/i.test(text)) return text;
  return text.replace(READER_ASKED, ' ').replace(READER_SERVED, (m) => m.replace(/\byou$/i, 'one'));
}

/** Words that tell the thing stayed as it was: they frame it only when told of it. */
const RETAINED = /\b(?:still|stays?|stayed|remains?|remained|kept|held|locked|retained|preserved|spared|untouched|unchanged|intact)\b/gi;
/** Between the thing and such a word, only what joins them: the head of its noun phrase ("the X backup is still"), auxiliaries, adverbs, other names coordinated with it. */
const JOINS = /^(?:\s*[\w.-]+){0,2}(?=\s+(?:is|are|was|were|has|have|had|will|would|should|must|still|remains?|stays?)\b)(?:\s*(?:is|are|was|were|has|have|had|been|being|be|will|would|should|must|now|also|all|both|each|safely|fully|just|simply|completely|entirely|still|then|currently|therefore|otherwise|(?:,|and|or|&)\s*[^\s,]+|,))*\s*$|^(?:\s*(?:is|are|was|were|has|have|had|been|being|be|will|would|should|must|now|also|all|both|each|safely|fully|just|simply|completely|entirely|still|then|currently|therefore|otherwise|(?:,|and|or|&)\s*[^\s,]+|,))*\s*$/i;

/**
 * "X is off the books, still in time for the refund", "got X off the books while the slot was still open", "X is
 * in Done and its comments remain visible": a word of retention frames the mention ("X" in `bare`) only when it
 * is told of it — X its subject with nothing but auxiliaries, adverbs or coordinated names between ("X and Y are
 * still booked"), or X within three words after it as its object ("kept X", "still have X", "kept the newest, X"). Elsewhere it is blanked.
 */
export function withoutRetentionElsewhere(bare: string): string {
  const at = bare.search(/\bX\b/);
  if (at < 0) return bare;
  return bare.replace(RETAINED, (word, offset: number) => {
    if (offset > at) return JOINS.test(bare.slice(at + 1, offset)) ? word : ' ';
    return /^\s*(?:[\w'’,:-]+\s+){0,3}$/.test(bare.slice(offset + word.length, at)) ? word : ' ';
  });
}
