/**
 * Where files live: a storage interface, with a local-folder implementation under the data folder. An S3-compatible
 * implementation can replace it without touching callers. Keys are made by the server, never by the client.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Storage {
  /** Writes the stream under the key; answers the size in bytes. */
  put(key: string, body: Readable): Promise<number>;
  get(key: string): Readable;
}

export function localStorage(root: string): Storage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(join(base, key));
    if (!path.startsWith(base + sep)) throw new Error('storage key escapes the storage folder');
    return path;
  };
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await pipeline(body, createWriteStream(path));
      return (await stat(path)).size;
    },
    get(key) {
      return createReadStream(pathOf(key));
    },
  };
}
