/**
 * For `npm run bench -- --worker-options '<json>'`: the production worker (`src/cli/cli.ts worker`) with
 * some Temporal WorkerOptions overridden (e.g. `{"maxCachedWorkflows": 100}`), to measure what they do
 * to parked runs before anyone changes src/worker/worker.ts.
 */
import { Worker, type WorkerOptions } from '@temporalio/worker';

const overrides = JSON.parse(process.env.BENCH_WORKER_OPTIONS ?? '{}') as Partial<WorkerOptions>;
const create = Worker.create.bind(Worker);
Worker.create = (options: WorkerOptions) => create({ ...options, ...overrides });
process.argv.splice(2, process.argv.length - 2, 'worker');
await import('../cli.ts');
