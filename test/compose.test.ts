/**
 * docker-compose.yml checked against the code, with no Docker engine: every service, image, command, port,
 * volume and variable it names exists and agrees with what the harness does (issue 38: a team brings up
 * Temporal, the workers and `serve`, the HTTP API with the inbox, from it).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { COMMANDS } from '../src/cli/commands.ts';
import { CLI_OPTIONS } from '../src/cli/context.ts';
import { DEFAULT_HTTP_PORT } from '../src/http/serve.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { DEFAULT_PORT } from '../src/temporal/temporal-server.ts';
import { AGENT_SEARCH_ATTRIBUTES } from '../src/wire/search-attributes.ts';
import { WORKER_NODE_ARGS } from '../src/worker/node-args.ts';
import { TEMPORAL_SERVER_VERSION } from './helpers/temporal-cluster.ts';

interface Service {
  image?: string;
  build?: string;
  command?: string | string[];
  entrypoint?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
}
const compose = parse(readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const { services } = compose;
const AGENT_SERVICES = ['worker', 'serve'];

/** Every .ts source of the harness (what a variable must be read by). */
function sources(dir: string): string {
  return readdirSync(dir).map((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return name.endsWith('.ts') ? readFileSync(file, 'utf8') : '';
  }).join('\n');
}
const code = ['src', 'activities', 'workflows'].map((d) => sources(path.join(PROJECT_ROOT, d))).join('\n');

test('the services: Temporal on PostgreSQL, its Web UI, the workers and serve; every dependency is one of them', () => {
  assert.deepEqual(Object.keys(services).sort(), ['postgresql', 'serve', 'temporal', 'temporal-namespace', 'temporal-schema', 'temporal-ui', 'worker']);
  for (const [name, service] of Object.entries(services)) {
    const deps = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const dep of deps) assert.ok(services[dep], `${name} depends on "${dep}", a service the file has`);
    assert.ok(service.image || service.build, `${name} has an image or a build`);
  }
});

test("the images: Temporal's server and tools at the version the cluster tests run; the harness's from its Dockerfile", () => {
  const version = TEMPORAL_SERVER_VERSION.replace(/^v/, '');
  assert.equal(services.temporal!.image, `temporalio/server:${version}`);
  for (const name of ['temporal-schema', 'temporal-namespace']) assert.match(services[name]!.image ?? '', new RegExp(`^temporalio/admin-tools:${version.replace(/\./g, '\\.')}-`));
  for (const name of AGENT_SERVICES) assert.equal(services[name]!.build, '.', `${name} is built from this repository`);
  const dockerfile = readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
  // The image's command is the worker's, under the production heap limit; serve runs the same image with its own command.
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
  assert.deepEqual(cmd, ['node', ...WORKER_NODE_ARGS, 'src/cli/cli.ts', 'worker']);
  assert.equal(services.worker!.command, undefined, "the worker runs the image's command");
});

test("the commands: serve's is a CLI command with options the CLI has, under the production heap limit", () => {
  const command = services.serve!.command as string[];
  assert.deepEqual(command.slice(0, 1 + WORKER_NODE_ARGS.length + 1), ['node', ...WORKER_NODE_ARGS, 'src/cli/cli.ts']);
  const [name, ...options] = command.slice(2 + WORKER_NODE_ARGS.length);
  assert.equal(name, 'serve');
  assert.ok(COMMANDS[name], `"${name}" is a CLI command`);
  for (const option of options) assert.ok(option.replace(/^--/, '') in CLI_OPTIONS, `${option} is an option of the CLI`);
  assert.deepEqual(options, ['--no-worker'], 'the workers run the runs; serve hosts none');
  assert.ok(existsSync(path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts')));
});

test('the ports: Temporal, its Web UI and serve, each where the code and the README say', () => {
  assert.deepEqual(services.temporal!.ports, [`${DEFAULT_PORT}:${DEFAULT_PORT}`]);
  assert.deepEqual(services['temporal-ui']!.ports, ['8080:8080']);
  assert.deepEqual(services.serve!.ports, [`${DEFAULT_HTTP_PORT}:${DEFAULT_HTTP_PORT}`]);
  assert.equal(services.serve!.environment!.AGENT_HTTP_PORT, String(DEFAULT_HTTP_PORT));
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes(`http://localhost:${DEFAULT_HTTP_PORT}/ui`) && readme.includes('http://localhost:8080'), "the README's deploy section names both");
  assert.ok(readme.includes('docker-compose up -d --scale worker=3'), 'and scales a service the file has');
});

test("the variables: every one the harness's services set is read by the code, and they agree between worker and serve", () => {
  for (const name of AGENT_SERVICES) {
    for (const variable of Object.keys(services[name]!.environment ?? {})) {
      assert.ok(code.includes(variable), `${name} sets ${variable}, which no source of the harness reads`);
    }
  }
  const worker = services.worker!.environment!;
  const serve = services.serve!.environment!;
  for (const shared of ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'AGENT_TASK_QUEUE', 'AGENT_STORE_URL', 'AGENT_WORKSPACE_ROOTS', 'AGENT_PAYLOAD_KEY']) {
    assert.equal(serve[shared], worker[shared], `${shared} is the same for serve and the workers`);
  }
  // The queue the CLI and services use by default (src/paths.ts), so a client on the host needs no AGENT_TASK_QUEUE.
  assert.match(readFileSync(path.join(PROJECT_ROOT, 'src', 'paths.ts'), 'utf8'), new RegExp(`AGENT_TASK_QUEUE \\?\\? '${worker.AGENT_TASK_QUEUE}'`));
  assert.equal(worker.TEMPORAL_ADDRESS, `temporal:${DEFAULT_PORT}`);
  // Tokens from the environment, required: without them serve listens on the container's loopback only.
  assert.match(serve.AGENT_HTTP_TOKENS ?? '', /^\$\{AGENT_HTTP_TOKENS:\?.+\}$/);
  assert.equal(worker.AGENT_PAYLOAD_KEY, '${AGENT_PAYLOAD_KEY:-}');
  assert.equal(worker.AGENT_SCRIPTED_MODELS, '${AGENT_SCRIPTED_MODELS:-}');
});

test("the store and the search attributes: the database the workers use is created, the attributes the runs set are registered", () => {
  const database = new URL(services.worker!.environment!.AGENT_STORE_URL!).pathname.slice(1);
  const schema = (services['temporal-schema']!.command as string[]).join('\n');
  assert.match(schema, new RegExp(`temporal-sql-tool --db ${database} create-database`));
  const namespace = (services['temporal-namespace']!.command as string[]).join('\n');
  const registered = /for attribute in ([^;]+);/.exec(namespace)?.[1]?.trim().split(/\s+/) ?? [];
  const types: Record<string, string> = { KEYWORD: 'Keyword', INT: 'Int', DOUBLE: 'Double' };
  assert.deepEqual(registered.sort(), AGENT_SEARCH_ATTRIBUTES.map((a) => `${a.name}=${types[a.type]}`).sort());
});

test('the volumes: every named volume is declared, every bind mount exists in the repository', () => {
  for (const [name, service] of Object.entries(services)) {
    for (const volume of service.volumes ?? []) {
      const source = volume.split(':')[0]!;
      if (source.startsWith('./')) assert.ok(existsSync(path.join(PROJECT_ROOT, source)), `${name} mounts ${source}`);
      else assert.ok(source in compose.volumes, `${name} uses volume ${source}, declared at the end`);
    }
  }
});
