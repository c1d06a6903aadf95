/**
 * Image processing with sharp (decision 0106): an uploaded image is checked for its pixel count before it is
 * decoded (a decompression bomb is refused from its header), turned upright from its EXIF orientation, fitted in
 * 3000x3000 and re-encoded without metadata: that is the library's original. The served variant applies the crop
 * to the original; the thumbnail is a 150x150 cover of the variant (shown at 75x75, sharp on dense screens).
 */
import { readFile } from 'node:fs/promises';
import { type CropArea, IMAGE_MAX_DIMENSION } from '@guildhall/shared';
import type bmpJs from 'bmp-js';
import type { Metadata, Sharp } from 'sharp';
import { HttpError } from '../../platform/errors.ts';

/** At most 100 megapixels are decoded (a 10,000 x 10,000 photo); a larger image is refused from its header. */
export const IMAGE_MAX_PIXELS = 100_000_000;
export const THUMBNAIL_SIZE = 150;

/**
 * sharp (and bmp-js) are loaded with the first image, not at start: sharp's native library keeps about 25 MiB
 * resident once loaded, and a server that is not receiving images has no use for it (decision 0086).
 */
type SharpFactory = typeof import('sharp').default;
let sharpModule: SharpFactory | undefined;
async function loadSharp(): Promise<SharpFactory> {
  if (!sharpModule) {
    const loaded = (await import('sharp')).default;
    // No cache of decoded images: an upload's pixels are freed when it is done.
    loaded.cache(false);
    sharpModule = loaded;
  }
  return sharpModule;
}

/**
 * At most two images are processed at once on an instance (uploads beyond wait their turn, their bytes already
 * spooled to disk): the memory of twenty parallel uploads is that of two.
 */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

export async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
  format: 'jpeg' | 'png';
  contentType: string;
}

const bomb = (name: string) =>
  new HttpError(
    400,
    `The image '${name}' has too many pixels to process (at most ${IMAGE_MAX_PIXELS / 1_000_000} megapixels).`,
  );
const unreadable = (name: string) => new HttpError(400, `The image '${name}' could not be read.`);

/** BMP is not read by the prebuilt sharp: its header is checked, then it is decoded to raw pixels. */
async function bmpInput(path: string, name: string): Promise<Sharp> {
  const bytes = await readFile(path);
  if (bytes.length < 26) throw unreadable(name);
  const width = Math.abs(bytes.readInt32LE(18));
  const height = Math.abs(bytes.readInt32LE(22));
  if (width === 0 || height === 0) throw unreadable(name);
  if (width * height > IMAGE_MAX_PIXELS) throw bomb(name);
  const bmp = (await import('bmp-js')).default;
  let decoded: bmpJs.ImageData;
  try {
    decoded = bmp.decode(bytes);
  } catch {
    throw unreadable(name);
  }
  // bmp-js answers ABGR: reorder to RGBA.
  const rgba = Buffer.alloc(decoded.data.length);
  for (let i = 0; i < rgba.length; i += 4) {
    rgba[i] = decoded.data[i + 3]!;
    rgba[i + 1] = decoded.data[i + 2]!;
    rgba[i + 2] = decoded.data[i + 1]!;
    rgba[i + 3] = 255;
  }
  const sharp = await loadSharp();
  return sharp(rgba, { raw: { width: decoded.width, height: decoded.height, channels: 4 } });
}

/** Reads the spooled upload and makes the library's original: upright, at most 3000x3000, without metadata. */
export async function normaliseImage(path: string, name: string, extension: string): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  let input: Sharp;
  let hasAlpha = false;
  if (extension === 'bmp') {
    input = await bmpInput(path, name);
  } else {
    let meta: Metadata;
    try {
      meta = await sharp(path, { limitInputPixels: false }).metadata();
    } catch {
      throw unreadable(name);
    }
    if (!meta.width || !meta.height) throw unreadable(name);
    if (meta.width * meta.height > IMAGE_MAX_PIXELS) throw bomb(name);
    hasAlpha = meta.hasAlpha === true;
    input = sharp(path, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' });
  }
  const format = extension === 'png' || extension === 'gif' ? (hasAlpha ? 'png' : 'jpeg') : 'jpeg';
  try {
    const pipeline = input
      .rotate()
      .resize(IMAGE_MAX_DIMENSION, IMAGE_MAX_DIMENSION, { fit: 'inside', withoutEnlargement: true });
    const { data, info } = await (format === 'png'
      ? pipeline.png({ compressionLevel: 6 })
      : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 90 })
    ).toBuffer({ resolveWithObject: true });
    return {
      data,
      width: info.width,
      height: info.height,
      format,
      contentType: format === 'png' ? 'image/png' : 'image/jpeg',
    };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (/pixel limit/i.test(String((err as Error).message))) throw bomb(name);
    throw unreadable(name);
  }
}

/** Clamps a crop to the image; none (or an empty one) is the whole image. */
export function clampCrop(
  crop: { [K in keyof CropArea]?: number | null | undefined },
  width: number,
  height: number,
): CropArea {
  const x = Math.min(Math.max(0, Math.round(crop.CropX ?? 0)), Math.max(0, width - 1));
  const y = Math.min(Math.max(0, Math.round(crop.CropY ?? 0)), Math.max(0, height - 1));
  const w = Math.round(crop.CropWidth ?? 0);
  const h = Math.round(crop.CropHeight ?? 0);
  return {
    CropX: x,
    CropY: y,
    CropWidth: w > 0 ? Math.min(w, width - x) : width - x,
    CropHeight: h > 0 ? Math.min(h, height - y) : height - y,
  };
}

/** The served variant (the crop of the original) and its thumbnail. */
export async function makeVariants(
  original: Buffer,
  crop: CropArea,
): Promise<{ variant: ProcessedImage; thumbnail: Buffer }> {
  const sharp = await loadSharp();
  const meta = await sharp(original).metadata();
  const format = meta.format === 'png' ? 'png' : 'jpeg';
  if (
    crop.CropX === 0 &&
    crop.CropY === 0 &&
    crop.CropWidth === meta.width &&
    crop.CropHeight === meta.height
  ) {
    // No crop: the served variant is the normalised original itself, not encoded a second time.
    const thumbnail = await sharp(original)
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
    return {
      variant: {
        data: original,
        width: meta.width,
        height: meta.height,
        format,
        contentType: format === 'png' ? 'image/png' : 'image/jpeg',
      },
      thumbnail,
    };
  }
  const cropped = sharp(original).extract({
    left: crop.CropX,
    top: crop.CropY,
    width: crop.CropWidth,
    height: crop.CropHeight,
  });
  const { data, info } = await (format === 'png' ? cropped.png() : cropped.jpeg({ quality: 85 })).toBuffer({
    resolveWithObject: true,
  });
  const thumbnail = await sharp(data)
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'cover' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
  return {
    variant: {
      data,
      width: info.width,
      height: info.height,
      format,
      contentType: format === 'png' ? 'image/png' : 'image/jpeg',
    },
    thumbnail,
  };
}
