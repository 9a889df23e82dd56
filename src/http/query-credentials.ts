/**
 * Credentials in a URL's query string, read strictly, and the URL as the request log may show it.
 *
 * The SSE route takes `?access_token=` (EventSource sends no headers) or a short-lived `?ticket=`. They
 * are read from the raw query string, not from Fastify's decoded one: a name counts only spelled exactly
 * (`access%5Ftoken` is refused, not read as the token), and a name given twice is refused rather than
 * picked from. The log hides the value of every parameter whose name, decoded, mentions a token or a
 * ticket, however many times and however it is spelled.
 */
import { HttpError } from './errors.ts';

export const CREDENTIAL_PARAMS = ['access_token', 'ticket'] as const;
export type CredentialParam = (typeof CREDENTIAL_PARAMS)[number];

export interface QueryCredential {
  param: CredentialParam;
  value: string;
}

/** The one credential a raw URL's query carries, or null; a 400 for anything ambiguous. */
export function queryCredential(url: string): QueryCredential | null {
  const found: QueryCredential[] = [];
  for (const { rawName, rawValue } of rawPairs(url)) {
    const name = decodeOrNull(rawName);
    const param = CREDENTIAL_PARAMS.find((p) => p === name);
    if (!param) continue;
    if (rawName !== param) {
      throw new HttpError('invalid_request', `Write the query parameter ${param} as it is spelled, not percent-encoded ("${rawName}"): only the exact name is read.`, `querystring.${param}`);
    }
    if (found.some((f) => f.param === param)) throw new HttpError('invalid_request', `The query gives ${param} more than once: send it once.`, `querystring.${param}`);
    const value = decodeOrNull(rawValue ?? '');
    if (value === null) throw new HttpError('invalid_request', `The query's ${param} is not valid percent-encoding.`, `querystring.${param}`);
    found.push({ param, value });
  }
  if (found.length > 1) throw new HttpError('invalid_request', `The query gives both ${CREDENTIAL_PARAMS.join(' and ')}: send one.`, 'querystring');
  return found[0] ?? null;
}

/** The URL with the value of every token- or ticket-like query parameter replaced by `…`. */
export function redactedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const pairs = rawPairs(url);
  if (pairs.some(({ rawName }) => decodeOrNull(rawName) === null)) return `${url.slice(0, at)}?…`;
  const shown = pairs.map(({ rawName, rawValue }) => (SECRET_NAME.test(rawName) || SECRET_NAME.test(decodeOrNull(rawName)!) ? `${rawName}=…` : rawValue === null ? rawName : `${rawName}=${rawValue}`));
  return `${url.slice(0, at)}?${shown.join('&')}`;
}

const SECRET_NAME = /token|ticket/i;

function rawPairs(url: string): { rawName: string; rawValue: string | null }[] {
  const at = url.indexOf('?');
  if (at === -1) return [];
  return url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? { rawName: pair, rawValue: null } : { rawName: pair.slice(0, eq), rawValue: pair.slice(eq + 1) };
    });
}

/** Form decoding (`+` is a space), as Fastify's query parser does; null when it is not valid. */
function decodeOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
}
