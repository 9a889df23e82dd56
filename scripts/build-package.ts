/**
 * `npm run build` (and `prepack`, so `npm pack` and `npm publish` always ship a fresh build): the package as
 * a consumer installs it. Node strips no types inside `node_modules`, so the package ships JavaScript: tsc
 * compiles workflows/, activities/ and src/ into dist/ with their .d.ts, its `.ts` import specifiers
 * rewritten to `.js` (tsconfig.build.json). Then the files the code reads beside its own modules at run
 * time are copied next to their compiled modules: the inbox's pages and scripts, the PostgreSQL migrations.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
/** Read at run time from the directory of the module that reads them (src/http/routes/ui.ts, src/store/postgres-migrations.ts). */
const ASSETS = ['src/http/ui', 'src/store/migrations'];

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
for (const dir of ASSETS) cpSync(path.join(root, dir), path.join(dist, dir), { recursive: true });
