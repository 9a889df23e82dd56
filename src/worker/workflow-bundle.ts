/**
 * A prebuilt workflow bundle, cached by the hash of the code that goes into it, so a worker does not
 * run webpack at every start. Each bundle is about 2.3 MB: one that no process has loaded for a week
 * is deleted when another is built.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { CACHE_DIR, CODE_ROOT, codeModule, PROJECT_ROOT } from '../paths.ts';

/** The workflows' entry as this process runs the code: workflows/index.ts from sources, dist/workflows/index.js compiled. */
export const WORKFLOWS_PATH = codeModule('workflows', 'index');
/** Evaluated once per workflow thread and shared by its runs (the zod library): see that file. */
const PRELOAD_MODULES = process.env.AGENT_NO_PRELOAD ? [] : [codeModule('workflows', 'zod-preload')];
/** Everything the workflow imports lives in these directories (the sources, or the compiled package's dist/). */
const BUNDLED_SOURCES = ['workflows', 'src/wire', 'src/claims', 'src/tools'].map((dir) => path.join(CODE_ROOT, dir));

/** `interceptorModules`: workflow interceptors to bundle in (tracing, tests' deliberate changes); each set, as written, gets a bundle of its own. */
export async function workflowBundle(options: { interceptorModules?: readonly string[] } = {}): Promise<{ codePath: string }> {
  const modules = [...(options.interceptorModules ?? [])];
  const variant = modules.length ? `-${createHash('sha256').update(modules.map((m) => `${m}\n${readFileSync(m, 'utf8')}`).join('\n')).digest('hex').slice(0, 8)}` : '';
  const codePath = path.join(CACHE_DIR, `workflow-bundle-${sourceHash()}${variant}${PRELOAD_MODULES.length ? '' : '-np'}.js`);
  if (!markLoaded(codePath)) {
    const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: modules, preloadModules: PRELOAD_MODULES, logger: quietLogger });
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(codePath, withoutSourcesContent(code));
    pruneBundleCache(CACHE_DIR);
  }
  return { codePath };
}

/** A cached bundle that no process has loaded for this long goes when another is built. */
const UNLOADED_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/** Records that the bundle is loaded now, in its modification time; false if there is no such bundle. */
function markLoaded(codePath: string): boolean {
  try {
    const now = new Date();
    utimesSync(codePath, now, now);
    return true;
  } catch (error) {
    // A cache the process may read but not touch (a read-only image) is used as it is.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Deletes the bundles in `dir` that no process has loaded for a week; returns their names. */
export function pruneBundleCache(dir: string, now = Date.now()): string[] {
  const deleted: string[] = [];
  for (const file of readdirSync(dir)) {
    if (!/^workflow-bundle-[\w-]+\.js$/.test(file)) continue;
    const bundle = path.join(dir, file);
    try {
      if (now - statSync(bundle).mtimeMs <= UNLOADED_FOR_MS) continue;
      rmSync(bundle, { force: true });
      deleted.push(file);
    } catch {
      // Deleted meanwhile by another process's pruning.
    }
  }
  return deleted;
}

/** Part of the cache key: change it when how the bundle is written changes. */
const BUNDLE_FORMAT = 'source map without sources';
const INLINE_SOURCE_MAP = '//# sourceMappingURL=data:application/json;charset=utf-8;base64,';

/**
 * The bundle with its inline source map's copy of every source file (1.2 of its 3.5 MB) left out. Every
 * worker start, and every replay, decodes and parses the map; stack traces need its mappings only (the
 * sources are read for the stack trace query with `showStackTraceSources`, which the worker does not set).
 * A worker starts with about 0.2 s less CPU (2.9 → 2.7 s here).
 */
function withoutSourcesContent(code: string): string {
  const at = code.lastIndexOf(INLINE_SOURCE_MAP);
  if (at < 0) throw new Error(`the workflow bundle has no inline source map starting "${INLINE_SOURCE_MAP}": has @temporalio/worker's bundler changed?`);
  const map = JSON.parse(Buffer.from(code.slice(at + INLINE_SOURCE_MAP.length).trimEnd(), 'base64').toString('utf8')) as { sourcesContent?: unknown };
  delete map.sourcesContent;
  return `${code.slice(0, at)}${INLINE_SOURCE_MAP}${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
}

/**
 * The cache key: the bundle's format, the dependencies as installed here (the lock file too in this
 * repository; a published package has none, and its consumer's lock is not ours to find), and the
 * harness's own modules, TypeScript or compiled.
 */
function sourceHash(): string {
  const hash = createHash('sha256');
  hash.update(BUNDLE_FORMAT);
  const lock = path.join(PROJECT_ROOT, 'package-lock.json');
  if (existsSync(lock)) hash.update(readFileSync(lock));
  for (const [name, version] of installedDependencies()) hash.update(`${name}@${version}\n`);
  for (const dir of BUNDLED_SOURCES) {
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      if (!/\.[cm]?[jt]s$/.test(file)) continue;
      hash.update(file);
      hash.update(readFileSync(path.join(dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** The version of each of the package's dependencies as Node would resolve it from the package (null: not found). */
function installedDependencies(root = PROJECT_ROOT): [string, string | null][] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(manifest.dependencies ?? {})
    .sort()
    .map((name) => [name, installedVersion(root, name)]);
}

/** Looks for `node_modules/<name>/package.json` from `root` up, as Node's resolution does (whatever the package's `exports` allow). */
function installedVersion(root: string, name: string): string | null {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? null;
    if (path.dirname(dir) === dir) return null;
  }
}

const quietLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
