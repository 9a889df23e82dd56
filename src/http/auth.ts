/**
 * Who may do what over HTTP: bearer tokens from configuration, each with a name (recorded as `by` with
 * the decisions it makes) and roles.
 *
 * Roles are explicit, and `viewer` comes with every token:
 *   viewer    reads runs, traces, events, the codec;
 *   approver  also decides approvals and answers questions;
 *   operator  also starts and cancels runs.
 * An operator does not approve unless it is also given `approver` (`ci:secret:operator+approver`), so a
 * service that starts runs cannot wave its own dangerous calls through.
 *
 * Configuration: `AGENT_HTTP_TOKENS="alice:s3cret:approver,ci-bot:t0ken:operator"` (`name:token:roles`,
 * roles joined by `+`; `token:roles` alone names the token `token-<first 8 hex of its SHA-256>`), or
 * `AGENT_HTTP_TOKENS_FILE=tokens.json` holding `[{"name":"alice","token":"s3cret","roles":["approver"]}]`.
 * No token configured: the server binds loopback only and every local caller is `local` with all roles.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AgentError } from '../wire/agent-error.ts';

export const ROLES = ['viewer', 'approver', 'operator'] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  name: string;
  roles: ReadonlySet<Role>;
}

export interface TokenEntry {
  name: string;
  token: string;
  roles: Role[];
}

/** The token table; empty means open: loopback only, every local caller has every role. */
export interface AuthConfig {
  tokens: TokenEntry[];
}

export class TokenConfigError extends AgentError {
  override readonly name = 'TokenConfigError';
  readonly code = 'TokenConfig';
}

const tokenFileSchema = z.array(
  z
    .object({
      name: z.string().regex(/^[\w.@-]{1,64}$/, 'name: 1-64 letters, digits or . _ @ -'),
      token: z.string().min(1),
      roles: z.array(z.enum(ROLES)).min(1),
    })
    .strict(),
);

/** The configured tokens: AGENT_HTTP_TOKENS_FILE, else AGENT_HTTP_TOKENS, else none. */
export function authConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  if (env.AGENT_HTTP_TOKENS_FILE) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(env.AGENT_HTTP_TOKENS_FILE, 'utf8'));
    } catch (error) {
      throw new TokenConfigError(`AGENT_HTTP_TOKENS_FILE (${env.AGENT_HTTP_TOKENS_FILE}) is not readable JSON: ${(error as Error).message}`);
    }
    const parsed = tokenFileSchema.safeParse(raw);
    if (!parsed.success) throw new TokenConfigError(`AGENT_HTTP_TOKENS_FILE: ${z.prettifyError(parsed.error)}`);
    return checked({ tokens: parsed.data });
  }
  return checked({ tokens: parseTokenList(env.AGENT_HTTP_TOKENS ?? '') });
}

/** `name:token:roles` or `token:roles`, comma-separated. */
export function parseTokenList(text: string): TokenEntry[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const parts = entry.split(':');
      if (parts.length < 2 || parts.length > 3) throw new TokenConfigError(`AGENT_HTTP_TOKENS entry "${redact(entry)}" is not name:token:roles or token:roles.`);
      const rolesText = parts.at(-1)!;
      const token = parts.at(-2)!;
      const name = parts.length === 3 ? parts[0]! : `token-${sha256(token).toString('hex').slice(0, 8)}`;
      const roles = rolesText.split('+').map((r) => r.trim());
      const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
      if (unknown.length) throw new TokenConfigError(`AGENT_HTTP_TOKENS: unknown role "${unknown[0]}" for ${name}; roles are ${ROLES.join(', ')}.`);
      if (!token) throw new TokenConfigError(`AGENT_HTTP_TOKENS: empty token for ${name}.`);
      return { name, token, roles: roles as Role[] };
    });
}

function checked(config: AuthConfig): AuthConfig {
  const names = new Set<string>();
  for (const { name } of config.tokens) {
    if (names.has(name)) throw new TokenConfigError(`Two tokens are named "${name}": names are what the trace records, so they must differ.`);
    names.add(name);
  }
  return config;
}

export class Authenticator {
  private readonly entries: { digest: Buffer; principal: Principal }[];
  /** No token configured: every caller is the local user with every role. */
  readonly open: boolean;

  constructor(config: AuthConfig) {
    this.open = config.tokens.length === 0;
    this.entries = config.tokens.map((t) => ({ digest: sha256(t.token), principal: { name: t.name, roles: new Set<Role>(['viewer', ...t.roles]) } }));
  }

  /** The principal a bearer token names, or null. Compares digests in constant time. */
  identify(token: string | undefined): Principal | null {
    if (this.open) return LOCAL;
    if (!token) return null;
    const digest = sha256(token);
    let found: Principal | null = null;
    for (const entry of this.entries) if (timingSafeEqual(entry.digest, digest)) found = entry.principal;
    return found;
  }
}

const LOCAL: Principal = { name: 'local', roles: new Set(ROLES) };

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function redact(entry: string): string {
  const parts = entry.split(':');
  return parts.map((p, i) => (i === parts.length - 2 ? '…' : p)).join(':');
}
