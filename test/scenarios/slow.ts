/** A model that takes 30 s to answer: long enough to be cancelled mid-call. */
export default () => ({ content: 'too late', delayMs: 30_000 });
