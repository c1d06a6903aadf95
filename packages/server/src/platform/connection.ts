import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long the rest of a refused body is read and discarded after the answer, before the connection is cut. */
const LINGER_MS = 2000;

/**
 * An answer sent before its request's body was read to the end (a body refused as too large, an upload refused at
 * its first bytes) ends its connection: the rest of that body would be read as the next request. The answer says
 * `Connection: close`, so the client opens a new connection for its next request instead of having it reset with
 * this one. Node would then cut the socket as soon as the answer is written, and a client still sending would
 * see a reset before the answer; so the server only stops writing, discards what still arrives for a moment
 * (the client reads the answer), then cuts the connection.
 */
export function registerConnectionClose(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, _payload, done) => {
    if (reply.statusCode === 413 || request.raw.complete === false) {
      reply.header('connection', 'close');
      lingerThenClose(request.raw);
    }
    done();
  });
}

function lingerThenClose(request: IncomingMessage): void {
  // (app.inject's simulated request has no socket to close)
  const socket = request.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || typeof socket.destroy !== 'function' || typeof socket.destroySoon !== 'function') return;
  // What Node calls once a `Connection: close` answer is written: stop writing, keep reading (the request is
  // dumped, so what arrives is discarded), and cut the connection a moment later.
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
