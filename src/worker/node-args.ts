/**
 * The Node.js flags a production worker process runs with (`npm run worker`, `npm run agent` whose `serve`
 * hosts a worker, the Dockerfile; the bench's parked-runs worker too). A test checks that those places say the same.
 *
 * A heap limit of 1 GiB: V8 sizes its garbage collection by the limit, and the default on a large machine
 * is 4 GiB, so a worker that parks 1,000 runs kept about 740 MiB resident (mostly garbage nobody
 * collected); under this limit it keeps 571–615 MiB (three runs), with the same resume latency and throughput
 * (`npm run bench -- --only parked --parked 1000`). It is still room for a hundred concurrent
 * activities' transcripts and tool outputs. In a container with a memory limit Node picks its own heap
 * limit from it; this flag then only matters when that limit is over 2 GiB.
 */
export const WORKER_NODE_ARGS = ['--max-old-space-size=1024'] as const;
