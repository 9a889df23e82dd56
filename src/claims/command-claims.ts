/**
 * Claims about commands (a tool of kind `run`: the built-in `run_command`, a user's `restart_server`, an
 * MCP `db__execute_sql`): which command a clause speaks of, by what the command does. "Restarted web-1"
 * is about `systemctl restart web-1`, "the migration ran" about `npm run migrate`, "the tests pass" about
 * `pytest -q`; a code span (`make lint`) names its command outright. Pure.
 */
import type { ReceiptEntry } from '../wire/receipt.ts';
import { inflect } from './claim-verbs.ts';
import { REDACTED } from '../wire/redact.ts';

/** What well-known programs and subcommands do, in the words an answer uses for it ("pytest" → test). */
const ACTIONS: Readonly<Record<string, readonly string[]>> = {
  test: ['pytest', 'jest', 'vitest', 'mocha', 'rspec', 'phpunit', 'unittest', 'ava', 'spec', 'tests'],
  lint: ['eslint', 'ruff', 'flake8', 'pylint', 'clippy', 'rubocop', 'stylelint', 'golangci-lint', 'linter'],
  build: ['make', 'webpack', 'vite', 'rollup', 'esbuild', 'gradle', 'mvn', 'cmake', 'bazel', 'tsc', 'compile', 'bundle'],
  compile: ['tsc', 'javac', 'gcc', 'clang', 'rustc', 'make', 'build'],
  type: ['tsc', 'mypy', 'pyright', 'typecheck'],
  install: ['ci', 'pip', 'add', 'dependency', 'deps', 'bundle', 'apt-get', 'apt', 'brew'],
  dependency: ['ci', 'install', 'deps'],
  package: ['ci', 'install'],
  migrate: ['migration', 'alembic', 'flyway', 'liquibase', 'schema'],
  format: ['prettier', 'fmt', 'black', 'gofmt', 'rustfmt', 'formatter'],
  restart: ['reload', 'bounce', 'reboot', 'systemctl'],
  backup: ['pg_dump', 'mysqldump', 'dump', 'snapshot'],
  dump: ['pg_dump', 'mysqldump', 'backup'],
  flush: ['flushall', 'flushdb', 'purge'],
  cache: ['flushall', 'flushdb', 'redis-cli', 'redis'],
  purge: ['flushall', 'flushdb', 'flush'],
  clear: ['flushall', 'flushdb', 'flush', 'purge', 'rm'],
  pull: ['fetch'],
  start: ['up', 'serve'],
  benchmark: ['bench'],
  rotate: ['logrotate'],
  delete: ['rm', 'rmdir', 'unlink', 'drop'],
  remove: ['rm', 'rmdir', 'unlink', 'drop'],
  clean: ['rm', 'clean', 'prune'],
  bump: ['version'],
  deploy: ['kubectl', 'helm', 'ship', 'release'],
  database: ['psql', 'mysql', 'sqlite3', 'prisma', 'pg_dump', 'migrate', 'seed', 'db'],
  branch: ['branch'],
  stack: ['compose', 'up'],
  container: ['docker', 'compose', 'podman'],
  image: ['docker', 'build'],
};

/** Words of commands that tell nothing of what they do ("npm run", "sudo", "bash -c"). */
const GENERIC = new Set(['sudo', 'npm', 'npx', 'yarn', 'pnpm', 'bun', 'run', 'exec', 'node', 'python', 'python3', 'bash', 'sh', 'zsh', 'env', 'sh', 'js', 'ts', 'py', 'script', 'scripts', 'command', 'cmd', 'bin', 'usr', 'local', 'etc', 'the', 'and', 'or', 'to', 'of', 'a', 'it', 'all', 'with', 'true', 'false', 'conf', 'yaml', 'json', 'file', 'new', 'old', 'one']);

const IRREGULAR: Readonly<Record<string, string>> = { ran: 'run', built: 'build', took: 'take', made: 'make', brought: 'bring', wrote: 'write', went: 'go', gone: 'go', done: 'do', did: 'do', set: 'set', rebuilt: 'rebuild', began: 'begin', begun: 'begin', kept: 'keep', left: 'leave', got: 'get' };

/** A word's stem, as loose as "migration" ~ "migrate" ~ "migrated", "tests" ~ "testing" ~ "test". */
export function stemOf(word: string): string {
  let w = word.toLowerCase().replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  const irregular = IRREGULAR[w];
  if (irregular) return irregular;
  if (w.length <= 4) return w.replace(/s$/, '');
  w = w.replace(/ies$/, 'y').replace(/(?:ions?|ments?|ings?|ed|es|s)$/, (m, at: number) => (at >= 3 ? '' : m));
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|ff|zz)$/.test(w)) w = w.slice(0, -1);
  return w.replace(/e$/, '');
}

/** The words of a command: programs, subcommands and targets, without flags, runners and file extensions. */
export function commandWords(command: string): string[] {
  const out: string[] = [];
  for (const token of command.toLowerCase().split(/[\s|&;><=()'"`]+/)) {
    if (!token || /^-/.test(token)) continue;
    const base = token.split('/').filter(Boolean).pop() ?? '';
    const bare = base.replace(/\.(?:sh|py|js|ts|mjs|rb|pl|bash|exe|bat|ps1)$/, '');
    for (const w of [bare, ...bare.split(/[-_.:]+/)]) if (w && !GENERIC.has(w) && !/^\d+$/.test(w)) out.push(w);
  }
  return [...new Set(out)];
}

/** The stems a command answers to: its own words, and the actions of the programs it calls. */
export function commandStems(command: string): Set<string> {
  const words = commandWords(command);
  const stems = new Set(words.map(stemOf));
  for (const [action, programs] of Object.entries(ACTIONS)) {
    if (words.some((w) => w === action || programs.includes(w))) stems.add(stemOf(action));
  }
  return stems;
}

const CLAUSE_STOP = new Set(['the', 'a', 'an', 'and', 'or', 'it', 'its', 'is', 'was', 'were', 'are', 'be', 'been', 'has', 'have', 'had', 'i', 'we', 'to', 'of', 'in', 'on', 'for', 'with', 'by', 'via', 'now', 'all', 'run', 'ran', 'running', 'runs', 'command', 'commands', 'script', 'scripts', 'then', 'so', 'that', 'this', 'from', 'after', 'before', 'at', 'as', 'up', 'out', 'no', 'not', 'new', 'old']);

/** The stems of a clause's words, as compared with a command's. */
export function clauseStems(text: string): Set<string> {
  const stems = new Set<string>();
  // A data file's name ("config/app.json") names a file, not a command's target.
  const words = text.toLowerCase().replace(/[\w./-]+\.(?:json|ya?ml|md|txt|log|csv|ini|conf|cfg|toml|xml|html?|env|lock)\b/g, ' ');
  for (const w of words.split(/[^a-z0-9_-]+/)) {
    if (!w || CLAUSE_STOP.has(w) || /^\d+$/.test(w)) continue;
    stems.add(stemOf(w));
    // "the deps" are the dependencies, "pytest" is the tests: the actions a word stands for.
    for (const [action, programs] of Object.entries(ACTIONS)) if (programs.includes(w)) stems.add(stemOf(action));
    for (const part of w.split(/[-_]+/)) if (part && part !== w && !CLAUSE_STOP.has(part)) stems.add(stemOf(part));
  }
  return stems;
}

/** The command a receipt entry ran: its object argument, else `command`, else its only argument. */
export function commandOf(entry: ReceiptEntry, objectArg: string | undefined): string | undefined {
  const value = objectArg ? entry.args[objectArg] : (entry.args.command ?? Object.values(entry.args)[0]);
  return value === undefined || value === REDACTED ? undefined : value;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const squash = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Does a code span in the answer name this command ("`npm test`" ~ `npm test -- --ci`)? */
export function spanNames(span: string, command: string): boolean {
  const a = squash(span);
  const b = squash(command);
  if (a === b || (a.length >= 3 && (b.startsWith(`${a} `) || a.startsWith(`${b} `)))) return true;
  // (…without its flags and their numbers: `redis-cli FLUSHDB` ~ `redis-cli -n 3 FLUSHDB`.)
  const bare = (s: string) => s.replace(/(?:^|\s)-{1,2}[\w-]+(?:[= ]\d+\b)?/g, ' ').replace(/\s+/g, ' ').trim();
  const x = bare(a);
  const y = bare(b);
  return x.length >= 3 && /\s/.test(x) && (x === y || y.startsWith(`${x} `));
}

/** A code span that reads as a command (not a file name, not a number, not a bare flag). */
export function looksLikeCommand(span: string): boolean {
  const s = span.trim();
  if (!s || /^-/.test(s) || /^[\d.,%\s]+$/.test(s)) return false;
  if (/\s/.test(s)) return /^[./\w-]+\s/.test(s);
  return /^(?:\.{0,2}\/)?[\w./-]+\.(?:sh|py|js|ts|rb|pl|bash)$/.test(s) || /^[a-z][\w-]*$/.test(s);
}

/**
 * How strongly a clause names a command: by a code span (10), else by the stems they share (one each).
 * The stem shared with the claim's own verb ("restarted" ~ `systemctl restart x`) counts once more.
 */
export function commandScore(region: string, spans: readonly string[], command: string, verb?: string): number {
  if (spans.some((s) => spanNames(s, command))) return 10;
  const ours = commandStems(command);
  const theirs = clauseStems(region);
  let score = 0;
  for (const s of theirs) if (ours.has(s) || (s.length >= 5 && [...ours].some((o) => o.length >= 4 && (s.startsWith(o) || o.startsWith(s))))) score++;
  // A number of the command named in the clause ("PID 4412" for `kill -9 4412`, "port 8080").
  for (const n of command.match(/(?<![\w.-])\d{3,}(?![\w.-])/g) ?? []) if (new RegExp(`(?<![\\w.-])${n}(?![\\w-]|\\.\\w)`).test(region)) score++;
  if (score && verb && ours.has(stemOf(verb.split(/\s+/)[0]!))) score++;
  return score;
}

export interface CommandVerdict {
  /** The command the claim is about, when the clause or the receipt tells it. */
  object?: string;
  /** Whether a `done` call backs the claim. */
  backed: boolean;
  /** False when the clause names no call (no code span, no command it does): the claim is about any. */
  named?: boolean;
}

/**
 * What the receipt says of a claim about commands in `region`: each code span that reads as a command is
 * checked on its own ("ran `npm ci` and `npm test`"); without one, the calls the clause names best by what
 * they do. A claim that names no call needs some done call (`fallback`).
 */
export function commandVerdicts(region: string, spans: readonly string[], entries: readonly ReceiptEntry[], objectArg: string | undefined, verb: string, tool = ''): CommandVerdict[] {
  const calls = entries.map((e) => ({ entry: e, command: commandOf(e, objectArg) }));
  let inRegion = spans.filter((s) => looksLikeCommand(s) && region.toLowerCase().includes(s.toLowerCase()));
  // Beside a span that names a call, a one-word span the receipt does not run is what the command acted on
  // ("ran `npm test`: 3 failing in `date-utils.spec.ts`", "including the flaky `test_upload_retry`").
  const runs = (s: string) => calls.some((c) => c.command !== undefined && spanNames(s, c.command));
  if (inRegion.some(runs)) inRegion = inRegion.filter((s) => runs(s) || /\s/.test(s.trim()));
  // A one-word span the receipt does not run is a command only where the clause runs it ("ran `make`", "via
  // `vacuumdb`"); else it names a thing ("dropped the unused `legacy_id` column").
  inRegion = inRegion.filter((s) => runs(s) || /\s/.test(s.trim()) || new RegExp(`\\b(?:ran|run|re-?ran|running|executed|executing|invoked|via|using|with|through|by)\\s+(?:the\\s+|a\\s+)?${escapeRe(s.trim())}`, 'i').test(region));
  if (inRegion.length) {
    return inRegion.map((span) => {
      const named = calls.filter((c) => c.command !== undefined && spanNames(span, c.command));
      // An undone call whose command the receipt does not show may be this one: it backs nothing.
      return { object: named[0]?.command ?? span, backed: named.some((c) => c.entry.outcome === 'done') };
    });
  }
  // Calls whose whole command (a host, a job name) the clause names: each on its own ("bounced api-2 and api-3").
  const lower = region.toLowerCase();
  const verbatim = calls.filter((c) => c.command !== undefined && !/\s/.test(c.command) && new RegExp(`(?<![\\w.-])${escapeRe(c.command.toLowerCase())}(?![\\w-])`).test(lower));
  if (verbatim.length > 1) {
    const byCommand = new Map<string, typeof verbatim>();
    for (const c of verbatim) byCommand.set(c.command!, [...(byCommand.get(c.command!) ?? []), c]);
    return [...byCommand].map(([command, cs]) => ({ object: command, backed: cs.some((c) => c.entry.outcome === 'done') }));
  }
  const scored = calls.filter((c) => c.command !== undefined).map((c) => ({ ...c, score: commandScore(region, [], c.command!, verb) }));
  const best = Math.max(0, ...scored.map((c) => c.score));
  if (best > 0) {
    const named = scored.filter((c) => c.score === best);
    if (named.some((c) => c.entry.outcome === 'done')) return [{ backed: true }];
    return [{ object: named[0]!.command, backed: false }];
  }
  // "Restarted nginx" when only `git status` was done: a verb that says what the command did needs a done call that does it.
  const action = stemOf(verb.split(/\s+/)[0]!);
  // (A tool whose name says the action, `heroku__restart_dyno`, does it whatever its argument.)
  const toolDoes = tool.split(/[^a-z]+/i).some((w) => w && stemOf(w) === action);
  const does = (c: (typeof calls)[number]) => GENERIC_VERBS.has(action) || toolDoes || c.command === undefined || commandStems(c.command).has(action);
  return [{ backed: calls.some((c) => c.entry.outcome === 'done' && does(c)), named: false }];
}

/** Nouns that name a command's work whatever the tool ("the tests", "the query", "the migration"). */
const RUN_NOUNS = ['command', 'script', 'query', 'sql', 'statement', 'tests', 'suite', 'build', 'migration', 'linter', 'lint', 'benchmark', 'typecheck', 'type-check', 'formatter'];

/** Verbs that say a command ran, not what it did. */
const GENERIC_VERBS = new Set(['run', 're-run', 'rerun', 'execute', 'execut', 'invok', 'launch', 'kick', 'trigger', 'start', 'fire', 'spin', 'give', 'do', 'try', 'call'].map(stemOf));

/** The code spans of an answer (`npm test`), and the lines of its fenced blocks. */
export function codeSpans(answer: string): string[] {
  const spans = [...answer.replace(/```[\s\S]*?```/g, ' ').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  return [...new Set(spans.filter(Boolean))];
}

/**
 * How much a clause tells of a command tool's work: a code span that reads as a command (10), the best
 * match of a call's command by what it does (2 or more), or one of the tool's nouns ("the tests": 1).
 */
export function commandEvidence(region: string, spans: readonly string[], entries: readonly ReceiptEntry[], spec: { objectArg?: string; nouns?: readonly string[] }, verb = ''): number {
  // The claim's own verb is no evidence of itself ("built" is not "the build").
  if (verb) region = region.replace(verb, ' ');
  const lower = region.toLowerCase();
  if (spans.some((s) => looksLikeCommand(s) && lower.includes(s.toLowerCase()))) return 10;
  let best = 0;
  for (const e of entries) {
    const command = commandOf(e, spec.objectArg);
    if (command) best = Math.max(best, commandScore(region, [], command));
  }
  // A call the clause names by what it does tells more (2+) than a word for commands in general (1).
  if (best) return best + 1;
  const stems = clauseStems(region);
  return [...(spec.nouns ?? []), ...RUN_NOUNS].some((n) => stems.has(stemOf(n))) ? 1 : 0;
}

/**
 * A command's own words are verbs of its claim: "killed the runaway process" for `kill -9 4412`, "pruned
 * the images" for `docker image prune -f`, "tagged the release" for `git tag v2.3.0`. They are added to the
 * command tool's spec as weak verbs (claims only with evidence of the command in the clause), per receipt.
 */
export function withCommandVerbs<S extends { kind?: string; weakVerbs?: readonly string[] }>(specs: Readonly<Record<string, S>>, receipt: readonly ReceiptEntry[]): Readonly<Record<string, S>> {
  let out: Record<string, S> | undefined;
  for (const [tool, spec] of Object.entries(specs)) {
    if (spec.kind !== 'run') continue;
    const words = new Set<string>();
    for (const e of receipt) {
      if (e.tool !== tool) continue;
      const command = e.args.command ?? Object.values(e.args)[0];
      if (!command || command === REDACTED) continue;
      // Their past forms only ("killed", "pruned"): a bare "SET" or "update" in quoted SQL is no account.
      for (const w of command.toLowerCase().split(/\s+/)) if (/^[a-z]{3,}$/.test(w) && !COMMAND_NOT_VERBS.has(w)) for (const past of inflect(w).past) if (/ed$/.test(past)) words.add(past);
    }
    const more = [...words].filter((w) => !(spec.weakVerbs ?? []).includes(w));
    // A word that names what one command does ("linted" for `npm run lint`, "rebased" for `git rebase main`)
    // claims that command by itself; an everyday one ("updated", "checked") still needs the command named.
    const own = more.filter((w) => !EVERYDAY_PASTS.has(w));
    if (more.length) (out ??= { ...specs })[tool] = { ...spec, weakVerbs: [...(spec.weakVerbs ?? []), ...more.filter((w) => !own.includes(w))], ...(own.length ? { verbs: [...((spec as { verbs?: readonly string[] }).verbs ?? []), ...own] } : {}) };
  }
  return out ?? specs;
}

/** Past forms of command words that everyday English uses for other things. */
const EVERYDAY_PASTS = new Set(['updated', 'checked', 'listed', 'showed', 'added', 'removed', 'deleted', 'created', 'started', 'stopped', 'opened', 'closed', 'moved', 'copied', 'changed', 'fixed', 'tested', 'logged', 'printed', 'viewed', 'watched', 'pushed', 'pulled', 'reset', 'cleaned', 'cleared', 'killed', 'applied', 'loaded', 'saved', 'sent', 'posted', 'fetched', 'searched', 'described', 'tagged', 'marked', 'noted', 'ran']);

/** Words of commands that are programs or fillers, not what a reader says was done. */
const COMMAND_NOT_VERBS = new Set(['sudo', 'npm', 'npx', 'pnpm', 'yarn', 'node', 'git', 'docker', 'kubectl', 'bash', 'the', 'and', 'all', 'run', 'exec', 'python', 'make', 'env']);
