/**
 * What every route that receives a file as multipart/form-data does when the body is refused (the CSV imports' upload,
 * the file library's and the images' uploads): the refusal said in the route's own words, and the connection of a
 * body still coming closed without reading it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './errors.ts';

/** How an upload route says each refusal of a multipart body. */
export interface MultipartRefusals {
  /** The file is over the route's limit (413). */
  tooLarge(): HttpError;
  /** More parts, fields or files than the route takes. */
  onlyTheFile: string;
  /** The body is not multipart/form-data as it should be (no boundary, a part cut short). */
  malformed: string;
}

/**
 * Errors of a malformed multipart body (no boundary, a part cut short, too many parts) are the client's: 4xx, said
 * by the route's `refusals`. An HttpError passes as it is; storage failing (a full disk) is ours.
 */
export function multipartError(err: unknown, refusals: MultipartRefusals): unknown {
  if (err instanceof HttpError) return err;
  const e = err as { statusCode?: unknown; code?: unknown; syscall?: unknown };
  if (e.syscall !== undefined) return err;
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return refusals.tooLarge();
  if (e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FIELDS_LIMIT')
    return new HttpError(400, refusals.onlyTheFile);
  const status =
    typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 400;
  return new HttpError(status, refusals.malformed);
}

/** How long a refused upload's remaining body is read and discarded after the answer, before the socket is cut. */
const LINGER_MS = 2000;

/**
 * Refused before its body was read to the end: answer at once, let Node discard what the client is still sending
 * (never buffering it) for a moment so the client reads the answer instead of a reset, then cut a connection
 * whose body still has not ended (a body that never ends cannot hold the socket).
 */
export function lingeringClose(request: IncomingMessage, response: ServerResponse): void {
  response.once('finish', () => {
    if (request.complete) return;
    setTimeout(() => {
      // (app.inject's simulated socket has no destroy: nothing to cut there)
      const socket = request.socket as Partial<typeof request.socket> | null;
      if (!request.complete && typeof socket?.destroy === 'function') socket.destroy();
    }, LINGER_MS).unref();
  });
}
