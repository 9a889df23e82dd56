/** A script with no reply at all. */
export default () => undefined;
