/** With OTEL_EXPORTER_OTLP_ENDPOINT set, spans leave over OTLP/HTTP to `<endpoint>/v1/traces` (a local stand-in collector). */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import { trace } from '@opentelemetry/api';
import { activeTelemetry, setupTelemetry } from '../src/telemetry/setup.ts';

const received: { url: string; body: string }[] = [];
const collector = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    received.push({ url: req.url ?? '', body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

after(async () => {
  await activeTelemetry()?.shutdown();
  collector.close();
});

test('OTEL_EXPORTER_OTLP_ENDPOINT: spans are exported over OTLP/HTTP with the service name', async () => {
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
  process.env.OTEL_SERVICE_NAME = 'agent-harness-otlp-test';
  const telemetry = setupTelemetry();
  assert.ok(telemetry, 'tracing is on');
  trace.getTracer('agent-harness').startActiveSpan('chat gpt-4o-mini', (span) => {
    span.setAttribute('gen_ai.request.model', 'gpt-4o-mini');
    span.end();
  });
  await telemetry.forceFlush();
  assert.equal(received.length, 1);
  assert.equal(received[0]!.url, '/v1/traces');
  const body = received[0]!.body;
  assert.match(body, /"name":"chat gpt-4o-mini"/);
  assert.match(body, /"key":"gen_ai\.request\.model","value":\{"stringValue":"gpt-4o-mini"\}/);
  assert.match(body, /"key":"service\.name","value":\{"stringValue":"agent-harness-otlp-test"\}/);
});
