/**
 * The bench's Temporal runtime: warnings only in the log, and Core's own metrics on a loopback Prometheus
 * endpoint, so the bench can count the gRPC calls the worker makes (heartbeats above all).
 */
import { createServer } from 'node:net';
import { DefaultLogger, Runtime } from '@temporalio/worker';

export interface CoreMetrics {
  /** Calls of a WorkflowService operation made so far by every connection of this process (a counter). */
  requests(operation: string): Promise<number>;
}

export async function installBenchRuntime(): Promise<CoreMetrics> {
  const port = await freePort();
  Runtime.install({
    logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN' | undefined) ?? 'WARN'),
    telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}` } } },
  });
  return {
    async requests(operation) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      let total = 0;
      for (const line of text.split('\n')) {
        // temporal_request{namespace="default",operation="RecordActivityTaskHeartbeat",…} 42
        if (!/^temporal_request(_total)?\{/.test(line) || !line.includes(`operation="${operation}"`)) continue;
        total += Number(line.slice(line.lastIndexOf(' ') + 1)) || 0;
      }
      return total;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
