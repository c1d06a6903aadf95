import { SMTPServer } from 'smtp-server';

/** A local SMTP server that keeps what it receives, for tests that read a mailed link. */
export interface Inbox {
  url: string;
  messages: string[];
  /** Waits until a message to `to` arrives and answers it, soft line breaks and =XX escapes decoded. */
  waitFor(to: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

export async function startInbox(): Promise<Inbox> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => {
        data += c.toString('utf8');
      });
      stream.on('end', () => {
        messages.push(decodeQuotedPrintable(data));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((m) => m.toLowerCase().includes(`to: ${to.toLowerCase()}`));
        if (found) return found;
        if (Date.now() > until) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-up token of a mailed link. */
export function signupTokenOf(mail: string): string {
  const m = /signup\/setup\?token=([A-Za-z0-9_-]+)/.exec(mail);
  if (!m?.[1]) throw new Error(`no sign-up link in ${mail}`);
  return m[1];
}
