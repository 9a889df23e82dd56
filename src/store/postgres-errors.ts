/**
 * Which PostgreSQL client failures mean "the store cannot be reached right now" (StoreUnavailableError,
 * retry later) rather than a bug: network errors, the server shutting down or starting up, too many
 * connections, a missing database or refused credentials (a misconfiguration an operator fixes while
 * the runs wait). Anything else is returned unchanged.
 */
import { StoreIntegrityError, StoreUnavailableError } from './errors.ts';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);

/** SQLSTATEs of a server shutting down, crashed or starting up (class 08, connection exceptions, is matched whole). */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);

const CONNECTION_MESSAGES = /Query read timeout|Connection terminated|timeout exceeded when trying to connect|connection error|Connection ended|not queryable|Client was closed/i;

const CHECK_SERVER = 'check that PostgreSQL is running and reachable from this host, and that AGENT_STORE_URL names it';

export function toStoreError(error: unknown, location: string): unknown {
  if (error instanceof StoreUnavailableError || error instanceof StoreIntegrityError) return error;
  const err = error as { code?: unknown; message?: unknown; errors?: unknown } | null;
  if (!err || typeof err !== 'object') return error;
  const codes = [err.code, ...(Array.isArray(err.errors) ? err.errors.map((e) => (e as { code?: unknown })?.code) : [])].filter(
    (c): c is string => typeof c === 'string',
  );
  const message = typeof err.message === 'string' && err.message ? err.message : (codes[0] ?? String(error));
  const unavailable = (check: string) => new StoreUnavailableError(location, message, check, { cause: error });

  if (codes.some((c) => NETWORK_CODES.has(c))) return unavailable(CHECK_SERVER);
  const sqlstate = codes.find((c) => /^[0-9A-Z]{5}$/.test(c));
  if (sqlstate === '3D000') return unavailable('check that the database exists (e.g. `createdb <name>`) and AGENT_STORE_URL names it');
  if (sqlstate === '28P01' || sqlstate === '28000') return unavailable('check the user and password in AGENT_STORE_URL and the server\'s pg_hba.conf');
  if (sqlstate === '53300') return unavailable('check max_connections on the server and the pool sizes of the workers');
  if (sqlstate === '53100') return unavailable('check the disk of the PostgreSQL server');
  if (sqlstate && (sqlstate.startsWith('08') || SERVER_CODES.has(sqlstate))) return unavailable(CHECK_SERVER);
  if (CONNECTION_MESSAGES.test(message)) return unavailable(CHECK_SERVER);
  return error;
}
