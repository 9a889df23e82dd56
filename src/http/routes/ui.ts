/**
 * The approvals inbox and the run pages: static HTML, CSS and one small script per page from
 * src/http/ui/ (no build step). The pages hold no data; they call the API with the token the person
 * pastes (kept in the browser's localStorage). `GET /me` tells a page who the token is.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ROLES, type Authenticator } from '../auth.ts';
import { errorSchema, meResponse } from '../schemas.ts';

const UI_DIR = path.join(import.meta.dirname, '..', 'ui');

/** The files the UI may serve, and their types (nothing else under ui/ is reachable). */
const ASSETS: Record<string, string> = {
  'style.css': 'text/css; charset=utf-8',
  'api.js': 'text/javascript; charset=utf-8',
  'inbox.js': 'text/javascript; charset=utf-8',
  'run.js': 'text/javascript; charset=utf-8',
};

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // Scripts and styles from this server only; the API on the same origin.
  'content-security-policy': "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
};

export const uiRoutes: FastifyPluginCallbackZod<{ auth: Authenticator }> = (app, { auth }, done) => {
  const page = (file: string) => async () => readFile(path.join(UI_DIR, file), 'utf8');
  const publicHidden = { schema: { hide: true }, config: { public: true } } as const;

  app.get('/', publicHidden, (_request, reply) => reply.redirect('/ui'));
  app.get('/ui', publicHidden, async (_request, reply) => reply.headers(PAGE_HEADERS).send(await page('inbox.html')()));
  app.get('/ui/runs/:id', publicHidden, async (_request, reply) => reply.headers(PAGE_HEADERS).send(await page('run.html')()));
  app.get('/ui/static/:file', { ...publicHidden, schema: { hide: true, params: z.object({ file: z.string() }) } }, async (request, reply) => {
    const type = ASSETS[request.params.file];
    if (!type) return reply.code(404).send({ error: 'not_found', message: `No UI file ${request.params.file}.` });
    return reply.headers({ 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }).send(await readFile(path.join(UI_DIR, request.params.file)));
  });

  app.get(
    '/me',
    {
      schema: {
        summary: 'Who this token is',
        tags: ['auth'],
        response: { 200: meResponse, 401: errorSchema },
      },
    },
    (request) => ({ name: request.principal.name, roles: ROLES.filter((r) => request.principal.roles.has(r)), authRequired: !auth.open }),
  );
  done();
};
