/** Words after "by" and "per" that name no other actor or source, for the frames of check-claims.ts, unbacked-mentions.ts and state-claims.ts. Pure. */

/**
 * "told by email", "briefed by message", "sent by Slack": a means of sending or a medium after "by" is no
 * actor (round 6) — the passive is still the agent's account.
 */
export const MEANS = String.raw`(?:e-?mail|mail|(?:text |direct |chat )?messages?|dm|phone|sms|texts?|slack|teams|post|courier|letter|chat|webhook|fax|pager|push|notification)\b`;

/**
 * "extended by a week", "cut by 20 %", "done by Friday", "by end of day": an amount or a time after "by" is no
 * actor either (round 9) — the frames of another's doing must not read it as one.
 */
export const MEASURE_OR_TIME = String.raw`(?:[$£€]?\d|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|another|a further|a few|several|some|about|around|roughly|nearly|almost|over|under|half|a couple of)\s+(?:(?:more|extra|full|whole|further|of)\s+)?(?:seconds?|minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|quarters?|years?|percent|per\s?cent|points?|dollars?|euros?|pounds?|cents?|units?|steps?|notches?|levels?|places?|slots?|items?|times?|[kmgt]i?b|bit|lot|margin|factor|half|third|quarter|hour)\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s+\d|tomorrow\b|tonight\b|today\b|noon\b|midnight\b|eod\b|cob\b|(?:the\s+)?(?:end|start|close) of\b|(?:the\s+)?(?:next|this|coming)\s+(?:morning|afternoon|evening|week|month|sprint|release)\b|the\s+\d{1,2}(?:st|nd|rd|th)\b)`;

/**
 * "per your request", "per the runbook", "two per day": after "per", a request, a rule or a unit names no source
 * that reports the effect (round 9); "per the logs", "per Stripe" still do.
 */
export const PER_NO_SOURCE = String.raw`(?:(?:your|the|our|my|his|her|their|this|that|our usual|the usual|standard)\s+)?(?:(?:original|earlier|latest|last|usual|written|team's|team)\s+)?(?:requests?|ask|asks|instructions?|orders?|wishes|brief|note|notes|message|email|runbook|playbook|plan|policy|policies|procedure|process|checklist|sop|spec|specs|ticket|usual|standard|agreement|contract|conversation|call|discussion|chat|decision|guidance|guidelines?|rules?|schedule|day|hour|week|month|year|user|person|head|seat|unit|item|night|cent)\b`;
