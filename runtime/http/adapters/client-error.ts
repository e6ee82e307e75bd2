import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

// Connections whose request was answered before its body had arrived: one whose client then
// breaks the body off (ends the connection mid-body) is a parse error to node:http, which by
// default writes a `400 Bad Request` after the answer already sent, a response to no request.
const ANSWERED_EARLY = new WeakSet<Socket>();
const EQUIPPED = new WeakSet<EventEmitter>();

/**
 * Notes that `req` is answered before its body arrived, and has its server's `clientError`
 * (when the app sets none) close such a connection without a second answer, and answer any
 * other as node:http does.
 */
export function answeredEarly(req: IncomingMessage): void {
  const socket = req.socket;
  ANSWERED_EARLY.add(socket);
  req.once('end', () => ANSWERED_EARLY.delete(socket));
  const server = (socket as { server?: EventEmitter }).server;
  if (server === undefined || typeof server.on !== 'function' || EQUIPPED.has(server)) return;
  EQUIPPED.add(server);
  if (server.listenerCount('clientError') === 0) server.on('clientError', clientError);
}

// --- internal ---

/** node:http's own answer to a request it cannot parse, but after an answer already sent. */
function clientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (ANSWERED_EARLY.has(socket)) return void socket.destroy();
  const inFlight = (socket as { _httpMessage?: { _headerSent?: boolean } | null })._httpMessage;
  if (socket.writable && (!inFlight || !inFlight._headerSent))
    socket.write(ANSWERS[error.code ?? ''] ?? BAD_REQUEST);
  socket.destroy(error);
}

const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
// As node:http answers them (`socketOnError`).
const ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};
