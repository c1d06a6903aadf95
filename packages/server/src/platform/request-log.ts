/**
 * One log line per request, written at its answer (decision 0195): what Fastify's two lines ("incoming request" and
 * "request completed") said together, the request (method, URL, host, remote address and port), the answer's status
 * and its time. A burst of requests writes half the lines it did. Errors, a route not found and the other lines
 * Fastify writes are kept as they were.
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
