/**
 * What a process says when its spans cannot be exported: OpenTelemetry's own handler printed the bare
 * network error (`ECONNREFUSED …`), naming neither OpenTelemetry nor the endpoint, and a flush at exit
 * that failed ended the command with it. Each different error is said once; the command goes on.
 */
import { createRequire } from 'node:module';
import type * as Core from '@opentelemetry/core';

const said = new Set<string>();

/** Says, once per different error, that spans could not be exported, and where to. */
export function reportExportError(error: unknown, log: (line: string) => void = (line) => console.error(line)): void {
  const first = Array.isArray(error) ? (error as unknown[])[0] : error;
  const message = (first instanceof Error ? first.message : typeof first === 'string' ? first : JSON.stringify(first)).split('\n')[0] ?? '';
  if (said.has(message)) return;
  said.add(message);
  const variable = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  log(`OpenTelemetry: could not export spans to ${process.env[variable]} (${variable}): ${message}. Is the collector running there? Unset ${variable} to turn tracing off.`);
}

/** Routes OpenTelemetry's own error reports (failed exports) to `reportExportError`. */
export function reportExportErrors(): void {
  const { setGlobalErrorHandler } = createRequire(import.meta.url)('@opentelemetry/core') as typeof Core;
  setGlobalErrorHandler((error) => reportExportError(error));
}
