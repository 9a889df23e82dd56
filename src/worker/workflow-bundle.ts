/**
 * A prebuilt workflow bundle, cached by the hash of the code that goes into it, so a worker does not
 * run webpack at every start.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { CACHE_DIR, PROJECT_ROOT } from '../paths.ts';

export const WORKFLOWS_PATH = path.join(PROJECT_ROOT, 'workflows', 'index.ts');
/** Evaluated once per workflow thread and shared by its runs (the zod library): see that file. */
const PRELOAD_MODULES = process.env.AGENT_NO_PRELOAD ? [] : [path.join(PROJECT_ROOT, 'workflows', 'zod-preload.ts')];
/** Everything the workflow imports lives in these directories. */
const BUNDLED_SOURCES = ['workflows', 'src/wire', 'src/claims', 'src/tools'].map((dir) => path.join(PROJECT_ROOT, dir));

/** `interceptorModules`: workflow interceptors to bundle in (tracing, tests' deliberate changes); each set, as written, gets a bundle of its own. */
export async function workflowBundle(options: { interceptorModules?: readonly string[] } = {}): Promise<{ codePath: string }> {
  const modules = [...(options.interceptorModules ?? [])];
  const variant = modules.length ? `-${createHash('sha256').update(modules.map((m) => `${m}\n${readFileSync(m, 'utf8')}`).join('\n')).digest('hex').slice(0, 8)}` : '';
  const codePath = path.join(CACHE_DIR, `workflow-bundle-${sourceHash()}${variant}${PRELOAD_MODULES.length ? '' : '-np'}.js`);
  if (!existsSync(codePath)) {
    const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: modules, preloadModules: PRELOAD_MODULES, logger: quietLogger });
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(codePath, code);
  }
  return { codePath };
}

function sourceHash(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(PROJECT_ROOT, 'package-lock.json')));
  for (const dir of BUNDLED_SOURCES) {
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      if (!file.endsWith('.ts')) continue;
      hash.update(file);
      hash.update(readFileSync(path.join(dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const quietLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
