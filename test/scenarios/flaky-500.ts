/** A provider that fails twice with HTTP 500, then answers. Attempts are counted per server process. */
let attempts = 0;
export default () => (++attempts <= 2 ? { status: 500 } : { content: `answered on attempt ${attempts}` });
