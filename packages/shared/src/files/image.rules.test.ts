import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centredCrop, EMPTY_IMAGE, fitWithin, imageUploadProgress } from './image.rules.ts';

describe('images (spec 001 §4, §5, §9)', () => {
  it.each([
    [6000, 4000, { width: 3000, height: 2000 }],
    [4000, 6000, { width: 2000, height: 3000 }],
    [1200, 800, { width: 1200, height: 800 }],
    [9000, 10, { width: 3000, height: 3 }],
    [0, 10, { width: 0, height: 0 }],
  ])('"images are resized to at most 3000x3000": %ix%i', (width, height, expected) => {
    expect(fitWithin(width, height)).toEqual(expected);
  });

  it('property: a resized image fits and keeps its shape', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 1, max: 50_000 }), (w, h) => {
        const fitted = fitWithin(w, h);
        expect(fitted.width).toBeLessThanOrEqual(3000);
        expect(fitted.height).toBeLessThanOrEqual(3000);
        expect(fitted.width).toBeLessThanOrEqual(w);
        expect(fitted.height).toBeLessThanOrEqual(h);
        if (fitted.width > 100 && fitted.height > 100) {
          expect(Math.abs(fitted.width / fitted.height - w / h) / (w / h)).toBeLessThan(0.02);
        }
      }),
    );
  });

  it('proposes the largest centred crop for a forced aspect ratio', () => {
    expect(centredCrop(1000, 500, 1)).toEqual({ CropX: 250, CropY: 0, CropWidth: 500, CropHeight: 500 });
    expect(centredCrop(1000, 1000, 16 / 9)).toEqual({
      CropX: 0,
      CropY: 218,
      CropWidth: 1000,
      CropHeight: 563,
    });
    expect(centredCrop(800, 600, null)).toEqual({ CropX: 0, CropY: 0, CropWidth: 800, CropHeight: 600 });
  });

  it('"20 to 80 percent during transfer, 95 on completion, 100 once the image is shown"', () => {
    expect(imageUploadProgress('transferring', 0)).toBe(20);
    expect(imageUploadProgress('transferring', 0.5)).toBe(50);
    expect(imageUploadProgress('transferring', 1)).toBe(80);
    expect(imageUploadProgress('transferring', 7)).toBe(80);
    expect(imageUploadProgress('transferring', Number.NaN)).toBe(20);
    expect(imageUploadProgress('transferring')).toBe(20);
    expect(imageUploadProgress('uploaded')).toBe(95);
    expect(imageUploadProgress('shown')).toBe(100);
  });

  it('"Remove closes with an empty image (ImageId 0, FileId 0, Url null)"', () => {
    expect(EMPTY_IMAGE).toEqual({ ImageId: 0, FileId: 0, Url: null });
  });
});
