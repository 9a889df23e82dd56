/**
 * Negations that assert (round 9): a negation whose scope is an obstacle to the act — a hesitation, a
 * difficulty, a delay, a doubt, something that could have stopped it — not the act itself ("didn't hesitate
 * to delete", "wasn't hard to send", "nothing stopped me from deleting", "no doubt it's gone", "took no time",
 * "no sooner had you asked than I ran", "it's not that I didn't write it"), or a pull the writer could not resist
 * ("couldn't resist sending"). The frames and the assertion check
 * read such a negation as no negation of the act: it is blanked before they look. Pure.
 */
export const LITOTES =
  /\b(?:(?:did(?:n't| not)|do(?:n't| not)|does(?:n't| not)|never|wo(?:n't| not))\s+(?:even\s+)?(?:hesitate|think twice|wait(?= to\b)|struggle|take long|take much)\w*|(?:was(?:n't| not)|is(?:n't| not)|were(?:n't| not)|it's not|it wasn't)\s+(?:at all\s+|very\s+|too\s+|that\s+)?(?:hard|difficult|tricky|a problem|an issue|a big deal|much (?:work|effort|trouble))|(?:there(?:'s| is| was)|with|had|have|i have|i had)\s+no\s+(?:doubt|question|problem|trouble|difficulty|issue|hesitation)s?(?:\s+(?:that|about it|with))?|\bno\s+(?:doubt|question)\s+(?:about it|that)?|without\s+(?:a\s+)?(?:doubt|hesitation|delay|second thought)|(?:nothing|nobody|no one)\s+(?:stopped|prevented|kept|held back|got in the way of)(?:\s+(?:me|us))?(?:\s+from)?|(?:took|takes|taking)\s+(?:no|next to no|hardly any|little)\s+(?:time|effort)(?:\s+at all)?|could(?:n't| not)\s+(?:resist|help(?:\s+but)?)|no sooner\b[^.;]{0,60}?\bthan|(?:it'?s|it is|it was)\s+not\s+that\s+(?:i|we)\s+(?:did(?:n't| not)|had(?:n't| not)|have(?:n't| not))(?:\s+\w+)?)\b/gi;

/** The text with its negations that assert blanked. */
export function withoutLitotes(text: string): string {
  return text.replace(LITOTES, ' ');
}
