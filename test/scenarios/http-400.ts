/** A provider that refuses the request: not worth retrying. */
export default () => ({ status: 400 });
