/**
 * The request hook that enforces roles: every route needs `viewer` unless its config says `public` or
 * names a higher role. The token comes from `Authorization: Bearer <token>`; routes with `queryToken`
 * (the SSE stream, which EventSource opens without headers) also take `?access_token=`, or a short-lived
 * `?ticket=` minted for that run (event-tickets.ts), read strictly from the raw query (query-credentials.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, Principal, Role } from './auth.ts';
import { HttpError } from './errors.ts';
import type { EventTickets } from './event-tickets.ts';
import { queryCredential } from './query-credentials.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The role a route needs (default viewer). */
    role?: Role;
    /** No token needed (UI assets, /openapi.json). */
    public?: boolean;
    /** The token may come as `?access_token=` too, or a ticket for the run `:id` as `?ticket=`. */
    queryToken?: boolean;
  }
  interface FastifyRequest {
    /** Who is calling (set for every non-public route). */
    principal: Principal;
  }
}

export function authHook(auth: Authenticator, tickets: EventTickets) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const config = request.routeOptions.config;
    // Unknown routes answer 404 whoever asks; public routes need nobody.
    if (request.routeOptions.url === undefined || config.public) return;
    const inQuery = config.queryToken ? queryCredential(request.url) : null;
    const header = bearerToken(request);
    const principal = identify(auth, tickets, request, header, inQuery);
    const needs = config.role ?? 'viewer';
    if (!principal.roles.has(needs)) {
      throw new HttpError('forbidden', `${request.method} ${request.routeOptions.url} needs the ${needs} role; token "${principal.name}" has ${[...principal.roles].join(', ')}.`);
    }
    request.principal = principal;
  };
}

function identify(auth: Authenticator, tickets: EventTickets, request: FastifyRequest, header: string | undefined, inQuery: ReturnType<typeof queryCredential>): Principal {
  if (header === undefined && inQuery?.param === 'ticket' && !auth.open) return tickets.redeem(inQuery.value, (request.params as { id?: string }).id ?? '');
  const token = header ?? (inQuery?.param === 'access_token' ? inQuery.value : undefined);
  const principal = auth.identify(token);
  if (principal) return principal;
  throw new HttpError(
    'unauthorized',
    token ? 'This bearer token is not configured on the server.' : 'Missing bearer token: send "Authorization: Bearer <token>" (tokens and roles come from AGENT_HTTP_TOKENS).',
  );
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}
