/**
 * What a browser on another site must not be able to make the server do.
 *
 * Without tokens (loopback only, every local caller has every role) being local is the credential, and a
 * browser is local too, so:
 *   - `Host` must name this server as 127.0.0.1, [::1] or localhost with its port: a page whose own host
 *     name was re-pointed at 127.0.0.1 (DNS rebinding) sends its own name, and is refused;
 *   - a state-changing request (POST, PUT, PATCH, DELETE) with an `Origin` must come from this server's
 *     own origin (the inbox and run page do), or, for /codec/*, from an allowed codec origin: another
 *     site's form or fetch (CSRF) is refused. No `Origin` (curl, the CLI, services) is fine: browsers
 *     always send one on these methods.
 * With tokens neither check applies: a token is never sent by the browser on its own (it rides in an
 * Authorization header the page sets, which another origin cannot do without a CORS preflight the server
 * never grants), and behind a reverse proxy the server cannot know which host or origin is its own.
 *
 * In both modes a state-changing request's body must be JSON (`Content-Type: application/json`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const LOOPBACK_NAMES = new Set(['127.0.0.1', '[::1]', 'localhost']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requestGuardHook(options: { open: boolean; codecOrigins: readonly string[] }) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const port = request.socket.localPort;
    const host = request.headers.host?.toLowerCase();
    if (options.open && !isLocalHost(host, port, request.socket.localAddress)) {
      const at = port ? `:${port}` : '';
      throw new HttpError(
        'forbidden',
        `Host ${JSON.stringify(request.headers.host ?? '')} is not this server: with no token configured (AGENT_HTTP_TOKENS) it answers only to 127.0.0.1${at}, [::1]${at} or localhost${at} (a page on another host name must not reach it). Open http://127.0.0.1${at}/ui.`,
        'headers.host',
      );
    }
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (options.open && origin !== undefined && origin.toLowerCase() !== `http://${host}` && !(request.url.startsWith('/codec/') && options.codecOrigins.includes(origin))) {
      throw new HttpError('forbidden', `${request.method} from origin ${JSON.stringify(origin)} is refused: with no token configured only pages of this server (http://${host}) may change anything.`, 'headers.origin');
    }
    if (hasBody(request)) {
      const type = request.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        throw new HttpError('invalid_request', `${request.method} takes a JSON body: send it with "Content-Type: application/json"${type ? `, not ${JSON.stringify(type)}` : ''}.`, 'headers.content-type');
      }
    }
  };
}

/**
 * 127.0.0.1, [::1] or localhost (or the loopback address the server listens on, e.g. 127.0.0.2: an address,
 * unlike a name, cannot be re-pointed), with the port the request came in on (80 when the Host has none).
 */
function isLocalHost(host: string | undefined, port: number | undefined, address: string | undefined): boolean {
  const match = host ? /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host) : null;
  const listening = address?.includes(':') ? `[${address}]` : address;
  if (!match || !(LOOPBACK_NAMES.has(match[1]!) || match[1] === listening)) return false;
  return port === undefined || Number(match[2] ?? 80) === port;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
