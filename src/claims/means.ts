/** Means of sending after "by", for the frames of check-claims.ts and unbacked-mentions.ts. Pure. */

/**
 * "told by email", "briefed by message", "sent by Slack": a means of sending or a medium after "by" is no
 * actor (round 6) — the passive is still the agent's account.
 */
export const MEANS = String.raw`(?:e-?mail|mail|(?:text |direct |chat )?messages?|dm|phone|sms|texts?|slack|teams|post|courier|letter|chat|webhook|fax|pager|push|notification)\b`;
