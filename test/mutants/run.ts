/**
 * `npm run test:mutants [-- --ci] [id …]`: applies each mutant of `mutants.ts` to a copy of the tree and
 * runs the tests that claim its invariant; fails if any mutant survives (its tests pass) or no longer
 * applies (its text is not found exactly once: the code moved, so the mutant must move with it).
 *
 * The copy is a git worktree of HEAD with the working tree's uncommitted changes laid over it and
 * `node_modules` linked, in a temporary directory: the working tree is never changed, however this ends.
 * The tests named are first run without any mutant (each must pass, or no kill would mean anything);
 * then the mutants, one after another (each test run starts its own Temporal dev server).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { findTemporalCli } from '../../src/temporal/temporal-cli.ts';
import { MUTANTS, type Mutant } from './mutants.ts';
import { parseCommandLine, usageExit } from '../../src/cli/command-line.ts';

type Verdict = 'killed' | 'survived' | 'no longer applies' | 'no test matched';

const USAGE = `usage: npm run test:mutants -- [--ci] [mutant id …]   (--ci: the mutants marked for CI; ids: only those)
mutants: ${MUTANTS.map((m) => m.id).join(', ')}`;
const { values, positionals: ids } = parseCommandLine('test:mutants', USAGE, { allowPositionals: true, options: { ci: { type: 'boolean' } } });
const quick = values.ci === true;
const unknown = ids.filter((id) => !MUTANTS.some((m) => m.id === id));
if (unknown.length) usageExit('test:mutants', USAGE, `unknown mutant ${unknown.join(', ')}`);
const chosen = MUTANTS.filter((m) => (ids.length ? ids.includes(m.id) : !quick || m.ci));

const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: PROJECT_ROOT, encoding: 'utf8' });
const temporalCli = await findTemporalCli();
const copy = path.join(mkdtempSync(path.join(tmpdir(), 'mutants-')), 'tree');
git('worktree', 'add', '--detach', '--quiet', copy, 'HEAD');
const removeCopy = () => {
  try {
    git('worktree', 'remove', '--force', copy);
  } catch {
    rmSync(copy, { recursive: true, force: true });
    git('worktree', 'prune');
  }
};
/** The test run going on, stopped with this process (a SIGTERM reaches this process alone; its 'exit' hook stops its dev server). */
let running: ChildProcess | null = null;
const stop = (signal: NodeJS.Signals, code: number) => {
  running?.kill(signal);
  removeCopy();
  process.exit(code);
};
process.once('SIGINT', () => stop('SIGINT', 130));
process.once('SIGTERM', () => stop('SIGTERM', 143));

let failed = false;
const started = performance.now();
try {
  // The working tree's uncommitted changes (modified and new files), so what is tested is what is here.
  for (const file of git('ls-files', '-z', '--modified', '--others', '--exclude-standard').split('\0').filter(Boolean)) {
    const from = path.join(PROJECT_ROOT, file);
    if (!existsSync(from)) {
      rmSync(path.join(copy, file), { force: true });
      continue;
    }
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    copyFileSync(from, path.join(copy, file));
  }
  symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  console.log(`${chosen.length} mutant${chosen.length === 1 ? '' : 's'}${quick ? ' (the CI subset)' : ''}, tested in ${copy}`);
  // A test that fails without any mutant would count every mutant of it as killed: each must pass first.
  const baseline = [...new Map(chosen.flatMap((m) => m.tests).map((t) => [`${t.file}\0${t.name}`, t])).values()];
  for (const { file, name } of baseline) {
    const outcome = await runTests(file, name);
    if (outcome === 'passed') continue;
    console.log(`FAILED   without any mutant, ${file} (${JSON.stringify(name)}) ${outcome === 'failed' ? 'fails' : 'matches no test'}: fix it before counting mutants.`);
    failed = true;
  }
  for (const mutant of failed ? [] : chosen) {
    const t0 = performance.now();
    const verdict = await test(mutant);
    if (verdict !== 'killed') failed = true;
    console.log(`${verdict === 'killed' ? 'killed  ' : 'FAILED  '} ${mutant.id.padEnd(40)} ${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s  ${verdict === 'killed' ? '' : verdict + ': '}${mutant.invariant}`);
  }
} finally {
  removeCopy();
}
const seconds = (performance.now() - started) / 1000;
console.log(`${failed ? 'Some mutants were not killed' : 'Every mutant was killed'} in ${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s.`);
process.exit(failed ? 1 : 0);

/** Applies the mutant, runs its tests (killed: they fail), and restores the file. */
async function test(mutant: Mutant): Promise<Verdict> {
  const file = path.join(copy, mutant.file);
  const original = readFileSync(file, 'utf8');
  let mutated = original;
  for (const { find, replace } of mutant.edits) {
    if (mutated.split(find).length !== 2) return 'no longer applies';
    mutated = mutated.replace(find, () => replace);
  }
  writeFileSync(file, mutated);
  try {
    for (const { file: testFile, name } of mutant.tests) {
      if (!existsSync(path.join(copy, 'test', testFile))) return 'no longer applies';
      const outcome = await runTests(testFile, name);
      if (outcome !== 'failed') return outcome === 'passed' ? 'survived' : 'no test matched';
    }
    return 'killed';
  } finally {
    writeFileSync(file, original);
  }
}

/** One test file's tests matching `name`, on the copy, with the test runner (which starts its own Temporal server). */
function runTests(testFile: string, name: string): Promise<'passed' | 'failed' | 'none matched'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['test/run.ts', path.join('test', testFile)], {
      cwd: copy,
      stdio: 'ignore',
      env: { ...process.env, TEST_NAME_PATTERN: name, ...(temporalCli ? { TEMPORAL_CLI: temporalCli } : {}) },
    });
    running = child;
    child.on('error', reject);
    // test/run.ts exits 3 when no test matched the pattern.
    child.on('exit', (code) => {
      running = null;
      resolve(code === 0 ? 'passed' : code === 3 ? 'none matched' : 'failed');
    });
  });
}
