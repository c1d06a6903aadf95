/**
 * Where files live: one storage interface with two backends, the local folder under the data folder (the default)
 * and S3-compatible object storage (`STORAGE_URL=s3://bucket?endpoint=…&region=…`). Keys are made by the server,
 * never by the client: a client's file name is only ever a label in the database.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { PassThrough, type Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';

export interface Storage {
  /** Which backend: shown in logs and the status page. */
  readonly kind: 'local' | 's3';
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

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error('not a storage key');
  return key;
}

export function localStorage(root: string): Storage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(join(base, checkKey(key)));
    if (!path.startsWith(base + sep)) throw new Error('storage key escapes the storage folder');
    return path;
  };
  return {
    kind: 'local',
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

export interface S3Location {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Key prefix inside the bucket (a deployment sharing a bucket), from the URL's path. */
  prefix: string;
}

/**
 * `s3://[accessKey:secret@]bucket[/prefix]?endpoint=https://…&region=…`. Without credentials in the address the
 * SDK's own chain is used (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, an instance role).
 */
export function parseStorageUrl(storageUrl: string): S3Location {
  const url = new URL(storageUrl);
  if (url.protocol !== 's3:') throw new Error(`STORAGE_URL must start with s3:// (got ${url.protocol})`);
  if (!url.hostname) throw new Error('STORAGE_URL names no bucket (s3://bucket?endpoint=…&region=…)');
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix && !KEY.test(prefix)) throw new Error('STORAGE_URL has a prefix that is not a storage key');
  return {
    bucket: url.hostname,
    endpoint: url.searchParams.get('endpoint') ?? undefined,
    region: url.searchParams.get('region') ?? 'us-east-1',
    accessKeyId: url.username ? decodeURIComponent(url.username) : undefined,
    secretAccessKey: url.password ? decodeURIComponent(url.password) : undefined,
    prefix,
  };
}

/**
 * Object storage through @aws-sdk/client-s3 (decision 0105). A put is spooled to a temporary file first, through
 * the checks: only a complete, accepted file is sent, with its length (one PutObject, no multipart upload to
 * abandon), so a refused upload never reaches the bucket and memory stays flat whatever the file's size.
 */
export function s3Storage(location: S3Location, spoolDir = tmpdir()): Storage {
  // The SDK is loaded on the first call, not at start: it keeps about 35 MiB resident, and a server on the data
  // folder (the default) never needs it (decision 0086).
  let connected: Promise<{ s3: typeof import('@aws-sdk/client-s3'); client: S3Client }> | undefined;
  const connect = () =>
    (connected ??= import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        region: location.region,
        ...(location.endpoint ? { endpoint: location.endpoint, forcePathStyle: true } : {}),
        ...(location.accessKeyId && location.secretAccessKey
          ? { credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey } }
          : {}),
        // Plain requests that every S3-compatible server understands (no aws-chunked bodies with trailing checksums).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })));
  const Bucket = location.bucket;
  const keyOf = (key: string) => (location.prefix ? `${location.prefix}/${checkKey(key)}` : checkKey(key));
  return {
    kind: 's3',
    async put(key, body, ...through) {
      const Key = keyOf(key);
      await mkdir(spoolDir, { recursive: true });
      const spool = join(spoolDir, `gh-spool-${randomBytes(8).toString('hex')}`);
      try {
        await pipeline([body, ...through, createWriteStream(spool)]);
        const { size } = await stat(spool);
        const { s3, client } = await connect();
        await client.send(
          new s3.PutObjectCommand({ Bucket, Key, Body: createReadStream(spool), ContentLength: size }),
        );
        return size;
      } catch (err) {
        body.destroy();
        throw err;
      } finally {
        await rm(spool, { force: true });
      }
    },
    get(key) {
      const out = new PassThrough();
      const Key = keyOf(key);
      connect()
        .then(({ s3, client }) => client.send(new s3.GetObjectCommand({ Bucket, Key })))
        .then(
          (answer) => {
            const stream = answer.Body as Readable | undefined;
            if (!stream) return out.destroy(new Error('object storage answered no body'));
            pipeline(stream, out).catch((err: unknown) => out.destroy(err as Error));
          },
          (err: unknown) => out.destroy(err as Error),
        );
      return out;
    },
    async has(key) {
      const Key = keyOf(key);
      const { s3, client } = await connect();
      try {
        await client.send(new s3.HeadObjectCommand({ Bucket, Key }));
        return true;
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 404 || (err as { name?: string }).name === 'NotFound') return false;
        throw err;
      }
    },
    async remove(key) {
      const Key = keyOf(key);
      const { s3, client } = await connect();
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key }));
    },
  };
}

/** The configured backend: object storage when STORAGE_URL is set, the data folder's `files` otherwise. */
export function createStorage(config: { dataDir: string; storageUrl?: string | undefined }): Storage {
  if (config.storageUrl) return s3Storage(parseStorageUrl(config.storageUrl), join(config.dataDir, 'spool'));
  return localStorage(join(config.dataDir, 'files'));
}

/** Reads a stored file whole (small files only: a CSV being imported, an image being processed). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
