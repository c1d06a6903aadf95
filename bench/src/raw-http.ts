/**
 * A minimal keep-alive HTTP/1.1 client for the bench: one socket, one request at a time, the request written as
 * one buffer and the answer read by its Content-Length (or chunks). The bench times the server through it: the
 * client runs in the same process and on the same two cores, and node:http's client (request and response objects,
 * the agent, streams) cost about as much per request as the server's own HTTP layer.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  text: string;
  headers: Record<string, string | string[]>;
}

const HEAD_END = Buffer.from('\r\n\r\n');

export class RawHttpClient {
  private socket: Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((error?: Error) => void) | undefined;
  private readonly host: string;
  private readonly port: number;

  constructor(origin: string) {
    const url = new URL(origin);
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  private async open(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.waiting?.();
    });
    socket.on('error', (error) => this.waiting?.(error));
    socket.on('close', () => this.waiting?.(new Error('The connection closed.')));
    this.socket = socket;
    this.buffered = Buffer.alloc(0);
    return socket;
  }

  /** Waits until `ready` finds a whole answer in what has arrived. */
  private read<T>(ready: () => T | undefined): Promise<T> {
    const now = ready();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<T>((resolve, reject) => {
      this.waiting = (error) => {
        if (error) {
          this.waiting = undefined;
          reject(error);
          return;
        }
        const found = ready();
        if (found !== undefined) {
          this.waiting = undefined;
          resolve(found);
        }
      };
    });
  }

  /** Whether its connection is open (a request goes over it without connecting first). */
  isOpen(): boolean {
    return this.socket !== undefined && !this.socket.destroyed;
  }

  /** When the last request was written to the connection (performance.now()). */
  writtenAt = Number.NaN;

  /** Sends a request; over an open connection it is written in the call's own turn. */
  send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
    const socket = this.socket;
    if (socket && !socket.destroyed) return this.write(socket, method, path, headers, body);
    return this.open().then((opened) => this.write(opened, method, path, headers, body));
  }

  private write(
    socket: Socket,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<RawAnswer> {
    const payload = body === undefined ? undefined : Buffer.from(body);
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nconnection: keep-alive\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    if (payload) head += `content-length: ${payload.length}\r\n`;
    head += '\r\n';
    socket.write(payload ? Buffer.concat([Buffer.from(head), payload]) : head);
    this.writtenAt = performance.now();
    return this.read(() => this.answer());
  }

  /** A whole answer from the front of what has arrived, or undefined while it is still coming. */
  private answer(): RawAnswer | undefined {
    const buf = this.buffered;
    const end = buf.indexOf(HEAD_END);
    if (end < 0) return undefined;
    const lines = buf.toString('latin1', 0, end).split('\r\n');
    const status = Number(lines[0]?.split(' ')[1] ?? 0);
    const headers: Record<string, string | string[]> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const had = headers[name];
      headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
    if (typeof headers['set-cookie'] === 'string') headers['set-cookie'] = [headers['set-cookie']];
    const start = end + HEAD_END.length;
    const length = headers['content-length'];
    if (length !== undefined) {
      const stop = start + Number(length);
      if (buf.length < stop) return undefined;
      this.buffered = buf.subarray(stop);
      return { status, headers, text: buf.toString('utf8', start, stop) };
    }
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = buf.indexOf('\r\n', at);
        if (lineEnd < 0) return undefined;
        const size = Number.parseInt(buf.toString('latin1', at, lineEnd), 16);
        const dataStart = lineEnd + 2;
        if (buf.length < dataStart + size + 2) return undefined;
        if (size === 0) {
          this.buffered = buf.subarray(dataStart + 2);
          return { status, headers, text: Buffer.concat(parts).toString('utf8') };
        }
        parts.push(buf.subarray(dataStart, dataStart + size));
        at = dataStart + size + 2;
      }
    }
    // No length and no chunks: an answer without a body (204, 304).
    this.buffered = buf.subarray(start);
    return { status, headers, text: '' };
  }

  close(): void {
    this.socket?.destroy();
  }
}
