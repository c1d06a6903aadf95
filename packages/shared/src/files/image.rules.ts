/** "Images are resized to at most 3000x3000." (spec 001 section 5) */
export const IMAGE_MAX_DIMENSION = 3000;
/** "Image dialog crop box 558x400" and "Reorder thumbnails 75x75" (spec 001 section 9). */
export const IMAGE_CROP_BOX = { width: 558, height: 400 } as const;
export const IMAGE_THUMBNAIL_SIZE = 75;

/** Scales a size down to fit in a box, keeping its aspect ratio; never scales up. */
export function fitWithin(
  width: number,
  height: number,
  maxWidth: number = IMAGE_MAX_DIMENSION,
  maxHeight: number = IMAGE_MAX_DIMENSION,
): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

export interface CropArea {
  CropX: number;
  CropY: number;
  CropWidth: number;
  CropHeight: number;
}

/**
 * The largest centred crop of an image with the given aspect ratio (width / height), as the image dialog proposes
 * when a usage forces one (ForceAspect). Without an aspect ratio, the whole image.
 */
export function centredCrop(width: number, height: number, aspect: number | null | undefined): CropArea {
  if (!aspect || aspect <= 0 || width <= 0 || height <= 0) {
    return { CropX: 0, CropY: 0, CropWidth: Math.max(0, width), CropHeight: Math.max(0, height) };
  }
  let cropWidth = width;
  let cropHeight = Math.round(width / aspect);
  if (cropHeight > height) {
    cropHeight = height;
    cropWidth = Math.round(height * aspect);
  }
  return {
    CropX: Math.floor((width - cropWidth) / 2),
    CropY: Math.floor((height - cropHeight) / 2),
    CropWidth: cropWidth,
    CropHeight: cropHeight,
  };
}

/**
 * "Image upload progress: 20 to 80 percent during transfer, 95 on completion, 100 once the image is shown."
 * (spec 001 section 4). `fraction` is the share of bytes sent, 0 to 1.
 */
export function imageUploadProgress(stage: 'transferring' | 'uploaded' | 'shown', fraction = 0): number {
  if (stage === 'shown') return 100;
  if (stage === 'uploaded') return 95;
  const share = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return Math.round(20 + 60 * share);
}

/** "Remove closes with an empty image (ImageId 0, FileId 0, Url null)." (spec 001 section 4) */
export const EMPTY_IMAGE = { ImageId: 0, FileId: 0, Url: null } as const;
