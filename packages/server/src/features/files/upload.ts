/**
 * Receiving an upload: one file part, streamed to a spool file on the server's disk through checks made while it
 * streams (the size limit, the type from the bytes, text that is text, HTML without script). Nothing reaches
 * storage or the database until the whole file passed; a refused upload leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  allowedExtensions,
  contentMatchesExtension,
  contentMismatchMessage,
  contentTypeOf,
  fileExtension,
  fileLabel,
  hasFolderPath,
  isTextExtension,
  UPLOAD_ERROR_CODES,
  UPLOAD_MAX_BYTES,
  type UploadKind,
  uploadErrorMessage,
} from '@guildhall/shared';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../platform/errors.ts';
import { type MultipartRefusals, multipartError } from '../../platform/multipart.ts';

/** Bytes file-type needs to see to decide. */
const SNIFF_BYTES = 4100;

export interface SpooledUpload {
  /** The spool file: removed by `discard` once stored (or refused). */
  path: string;
  name: string;
  extension: string;
  contentType: string;
  size: number;
  discard(): Promise<void>;
}

export const tooLarge = (name: string) =>
  new HttpError(413, uploadErrorMessage(UPLOAD_ERROR_CODES.FileTooLarge, name), undefined, {
    Code: UPLOAD_ERROR_CODES.FileTooLarge,
  });

export const badExtension = (name: string) =>
  new HttpError(400, uploadErrorMessage(UPLOAD_ERROR_CODES.ExtensionNotAllowed, name), undefined, {
    Code: UPLOAD_ERROR_CODES.ExtensionNotAllowed,
  });

/**
 * Checks the bytes as they pass: the first 4100 decide the type (file-type) against the extension; a text file
 * must be UTF-8 without NUL or other binary control bytes all along; an HTML file must hold no script.
 */
class ContentCheck extends Transform {
  private head: Buffer[] = [];
  private headLength = 0;
  private decided = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private tail = '';
  size = 0;

  private readonly name: string;
  private readonly extension: string;

  constructor(name: string, extension: string) {
    super();
    this.name = name;
    this.extension = extension;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.decided) {
      done(this.pass(chunk));
      return;
    }
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) {
      done();
      return;
    }
    this.decide().then(() => done(this.passHead()), done);
  }

  override _flush(done: TransformCallback): void {
    const finish = (): void => {
      if (this.size === 0) {
        done(new HttpError(400, `The file '${this.name}' is empty.`));
        return;
      }
      if (isTextExtension(this.extension)) {
        try {
          this.decoder.decode();
        } catch {
          done(this.mismatch(undefined));
          return;
        }
      }
      done();
    };
    if (this.decided) {
      finish();
      return;
    }
    this.decide().then(() => {
      const err = this.passHead();
      if (err) done(err);
      else finish();
    }, done);
  }

  private passHead(): Error | null {
    const head = Buffer.concat(this.head);
    this.head = [];
    return this.pass(head);
  }

  private mismatch(detected: string | undefined): HttpError {
    return new HttpError(415, contentMismatchMessage(this.name, this.extension, detected));
  }

  private async decide(): Promise<void> {
    this.decided = true;
    const head = Buffer.concat(this.head);
    if (head.length === 0) return;
    // Loaded with the first upload, not at start (decision 0086).
    const { fileTypeFromBuffer } = await import('file-type');
    const detected = (await fileTypeFromBuffer(head))?.ext;
    const text = detected === undefined && !hasBinaryBytes(head);
    if (!contentMatchesExtension(this.extension, detected, text)) throw this.mismatch(detected);
  }

  /** Checks a chunk and sends it on; answers the error that refuses the file, if any. */
  private pass(chunk: Buffer): Error | null {
    if (chunk.length === 0) return null;
    if (isTextExtension(this.extension)) {
      if (hasBinaryBytes(chunk)) return this.mismatch(undefined);
      let text: string;
      try {
        text = this.decoder.decode(chunk, { stream: true });
      } catch {
        return this.mismatch(undefined);
      }
      if (this.extension === 'html') {
        // Looked for across chunk boundaries: the end of the previous chunk is searched again with this one.
        const window = this.tail + text;
        if (SCRIPT.test(window))
          return new HttpError(
            400,
            `The file '${this.name}' holds a script; HTML with scripts cannot be uploaded.`,
          );
        this.tail = window.slice(-64);
      }
    }
    this.push(chunk);
    return null;
  }
}

/** Script in HTML: a script element, an event handler attribute, a javascript: address, an embedded object. */
const SCRIPT = /<\s*(script|iframe|object|embed)\b|\bon[a-z]+\s*=|javascript\s*:|<\s*meta[^>]+http-equiv/i;

/** NUL and C0 control bytes other than tab, LF, VT, FF, CR. */
function hasBinaryBytes(bytes: Buffer): boolean {
  for (const b of bytes) if (b < 0x20 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13) return true;
  return false;
}

/** How the upload routes say a refused multipart body (the file's name in a file's refusals). */
const ONE_FILE = 'Send one file, in the form field "file".';
const refusals = (name: string): MultipartRefusals => ({
  tooLarge: () => tooLarge(name),
  onlyTheFile: ONE_FILE,
  malformed: 'The upload is not a valid multipart/form-data body with one file.',
});

/** The multipart limits of an upload route: one file of at most 50 MB (busboy stops the part there). */
export const UPLOAD_LIMITS = {
  fileSize: UPLOAD_MAX_BYTES,
  files: 1,
  fields: 4,
  parts: 5,
  fieldSize: 1024,
} as const;

/**
 * Streams the request's one file to a spool file under `spoolDir`, refusing (before the bytes reach anything but
 * the spool, which is then removed) a name with a folder path, an extension the kind does not allow (-601), more
 * than 50 MB (-600, while it streams), an empty file, and content that is not what the extension says.
 */
export async function receiveUpload(
  request: FastifyRequest,
  kind: UploadKind,
  spoolDir: string,
): Promise<SpooledUpload> {
  if (!request.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data.');
  await mkdir(spoolDir, { recursive: true });
  const path = join(spoolDir, `upload-${randomBytes(12).toString('hex')}`);
  const discard = () => rm(path, { force: true });
  let received: SpooledUpload | undefined;
  let name = 'file';
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue; // form fields beside the file (a name, a token) are ignored
      if (received) throw new HttpError(400, ONE_FILE);
      const raw = part.filename ?? '';
      if (hasFolderPath(raw))
        throw new HttpError(400, `A file name cannot hold a folder path ('${fileLabel(raw)}').`);
      name = fileLabel(raw) || 'file';
      const extension = fileExtension(name);
      if (!allowedExtensions(kind).includes(extension)) throw badExtension(name);
      const check = new ContentCheck(name, extension);
      await pipeline(part.file, check, createWriteStream(path));
      if (part.file.truncated) throw tooLarge(name);
      received = {
        path,
        name,
        extension,
        contentType: contentTypeOf(extension),
        size: check.size,
        discard,
      };
    }
    if (!received) throw new HttpError(400, 'Choose a file to upload.', { file: ['Choose a file.'] });
    return received;
  } catch (err) {
    await discard();
    throw multipartError(err, refusals(name));
  }
}
