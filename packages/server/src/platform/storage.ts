/**
 * Where files live: a storage interface, with a local-folder implementation under the data folder. An S3-compatible
 * implementation can replace it without touching callers. Keys are made by the server, never by the client: a
 * client's file name is only ever a label in the database.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Storage {
  /**
   * Writes the stream under the key, through the optional transforms (checks while it streams); answers the size
   * in bytes. All or nothing: when the stream or a transform fails, nothing is left under the key.
   */
  put(key: string, body: Readable, ...through: Transform[]): Promise<number>;
  get(key: string): Readable;
  /** Whether a file is stored under the key. */
  has(key: string): Promise<boolean>;
  /** Removes the file under the key, if any. */
  remove(key: string): Promise<void>;
}

/** Server-made keys only: path segments of letters, digits, `-`, `_` and `.`, never `..` or empty. */
const KEY = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

export function localStorage(root: string): Storage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error('not a storage key');
    const path = resolve(join(base, key));
    if (!path.startsWith(base + sep)) throw new Error('storage key escapes the storage folder');
    return path;
  };
  return {
    async put(key, body, ...through) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Written beside the key and renamed when complete: a refused or broken upload leaves no file behind.
      const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await pipeline([body, ...through, createWriteStream(partial)]);
        await rename(partial, path);
      } catch (err) {
        body.destroy();
        await rm(partial, { force: true });
        throw err;
      }
      return (await stat(path)).size;
    },
    get(key) {
      return createReadStream(pathOf(key));
    },
    async has(key) {
      return stat(pathOf(key)).then(
        (s) => s.isFile(),
        () => false,
      );
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
