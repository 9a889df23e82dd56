/** A model that answers after a second: long enough for calls to overlap. */
export default () => ({ content: 'done', delayMs: 1000 });
