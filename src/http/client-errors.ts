/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a body on a GET without a length, a bad
 * method, headers over 16 KiB, a request that took too long): answered with the API's own error body,
 * `{error, message, field}`, where Fastify's default sends a body of its own (`{"error":"Bad Request",
 * "message":"Client Error"}`) that names nothing. The connection is closed afterwards: what follows the bad
 * bytes on it cannot be read as a request.
 */
import type { Socket } from 'node:net';
import type { ErrorBody } from './errors.ts';

interface ParserError extends Error {
  code?: string;
}

export function clientErrorHandler(error: ParserError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, body] = answer(error);
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${text}\r\nContent-Length: ${Buffer.byteLength(json)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${json}`);
  }
  socket.destroy(error);
}

function answer(error: ParserError): [number, string, ErrorBody] {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', { error: 'invalid_request', message: 'The request was not received in time: send it again, whole.', field: 'request' }];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', { error: 'invalid_request', message: 'The request headers are larger than 16 KiB: send fewer or shorter headers.', field: 'headers' }];
    default:
      return [
        400,
        'Bad Request',
        {
          error: 'invalid_request',
          message: `The request is not valid HTTP/1.1 (${error.code ?? 'unparsable'}: ${error.message.replace(/ encountered.*/s, '')}). A body needs a Content-Length or chunked Transfer-Encoding.`,
          field: 'request',
        },
      ];
  }
}
