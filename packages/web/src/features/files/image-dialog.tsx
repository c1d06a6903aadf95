/**
 * The image dialog (spec 001 sections 2 and 4): loads the image by its usage and image id, falling back to the file
 * id, then the url, in a processing state meanwhile; uploads with progress (20 to 80 % while the bytes go, 95 when
 * the server has it, 100 once it is shown), picks an existing image of the library, crops it in a 558x400 box with
 * the usage's aspect ratio forced when it has one (react-easy-crop; the crop is applied on the server), and sets
 * caption, title and alt text. The crop box's 558x400 (IMAGE_CROP_BOX) is `.gh-image-crop` in global.css, 100 % wide
 * under 520 px. Remove closes with an empty image (ImageId 0, FileId 0, Url null); closing after a
 * save returns the image with its crop data.
 */
import {
  checkUpload,
  EMPTY_IMAGE,
  IMAGE_UPLOAD_EXTENSIONS,
  type Image,
  imageUploadProgress,
} from '@guildhall/shared';
import {
  Alert,
  Button,
  FileButton,
  Group,
  Loader,
  Modal,
  Progress,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPhoto, IconUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { SelectExistingFileDialog } from './file-picker-dialogs.tsx';
import { filesApi, uploadMessage, uploadWithProgress } from './files-api.ts';

export type ImageDialogResult = Image | typeof EMPTY_IMAGE;

export interface ImageDialogProps {
  opened: boolean;
  /** The usage (1 the logo, 2 a contact's photo, 3 a gallery): its aspect ratio is forced; uploads belong to it. */
  usageId?: number | null;
  /** The record of the usage (a contact for its photo). */
  sourceId?: number | null;
  imageId?: number | null;
  fileId?: number | null;
  url?: string | null;
  /** Closed: the saved image, the empty image after Remove, or null when cancelled. */
  onClose: (result: ImageDialogResult | null) => void;
}

type Stage = { kind: 'idle' } | { kind: 'uploading'; percent: number } | { kind: 'failed'; message: string };

/** Loads by image id, falling back to the file id, then the url (spec 001 section 4). */
async function loadImage(props: ImageDialogProps): Promise<{ image: Image | null; url: string | null }> {
  if (props.imageId) {
    try {
      return { image: await filesApi.image(props.imageId), url: null };
    } catch {
      // falls back to the file id
    }
  }
  if (props.fileId) {
    try {
      return { image: await filesApi.imageOfFile(props.fileId), url: null };
    } catch {
      // falls back to the url
    }
  }
  return { image: null, url: props.url ?? null };
}

export function ImageDialog(props: ImageDialogProps) {
  const [loading, setLoading] = useState(false);
  const [image, setImage] = useState<Image | null>(null);
  const [fallbackUrl, setFallbackUrl] = useState<string | null>(null);
  const [aspect, setAspect] = useState<number | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [texts, setTexts] = useState({ Title: '', Caption: '', ShortDescription: '' });
  const [picking, setPicking] = useState(false);
  const [saving, setSaving] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per opening and per identity of the image
  useEffect(() => {
    if (!props.opened) return;
    let live = true;
    setLoading(true);
    setStage({ kind: 'idle' });
    Promise.all([
      loadImage(props),
      props.usageId ? filesApi.usage(props.usageId, props.sourceId).catch(() => null) : Promise.resolve(null),
    ])
      .then(([loaded, usage]) => {
        if (!live) return;
        show(loaded.image);
        setFallbackUrl(loaded.url);
        setAspect(usage?.AspectRatio ?? null);
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [props.opened, props.imageId, props.fileId, props.url, props.usageId, props.sourceId]);

  function show(next: Image | null) {
    setImage(next);
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setArea(null);
    setTexts({
      Title: next?.Title ?? '',
      Caption: next?.Caption ?? '',
      ShortDescription: next?.ShortDescription ?? '',
    });
  }

  async function upload(file: File | null) {
    if (!file) return;
    const check = checkUpload(file, 'image');
    if (!check.ok) {
      setStage({ kind: 'failed', message: check.message });
      return;
    }
    setStage({ kind: 'uploading', percent: imageUploadProgress('transferring', 0) });
    try {
      const answer = await uploadWithProgress<{ ImageId: number; Image: Image }>(
        `/api/images/Upload/${props.usageId ?? 0}/${props.sourceId ?? 0}`,
        file,
        (fraction) => setStage({ kind: 'uploading', percent: imageUploadProgress('transferring', fraction) }),
      );
      setStage({ kind: 'uploading', percent: imageUploadProgress('uploaded') });
      show(answer.Image);
    } catch (error) {
      setStage({ kind: 'failed', message: uploadMessage(error) });
    }
  }

  async function choose(fileId: number) {
    setLoading(true);
    try {
      show(
        props.usageId
          ? await filesApi.chooseImage(props.usageId, props.sourceId ?? null, fileId)
          : await filesApi.imageOfFile(fileId),
      );
    } catch (error) {
      setStage({ kind: 'failed', message: uploadMessage(error) });
    } finally {
      setLoading(false);
    }
  }

  async function save() {
    if (!image) return props.onClose(null);
    setSaving(true);
    try {
      const saved = await filesApi.saveImage(image.ImageId, {
        ...texts,
        ...(area
          ? {
              CropX: Math.round(area.x),
              CropY: Math.round(area.y),
              CropWidth: Math.round(area.width),
              CropHeight: Math.round(area.height),
            }
          : {}),
        ForceAspect: aspect,
      });
      props.onClose(saved);
    } catch (error) {
      setStage({ kind: 'failed', message: uploadMessage(error) });
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    if (image && props.usageId) {
      try {
        await filesApi.deleteImage(image.ImageId);
      } catch (error) {
        setStage({ kind: 'failed', message: uploadMessage(error) });
        return;
      }
    }
    props.onClose(EMPTY_IMAGE);
  }

  const source = image?.OriginalUrl ?? fallbackUrl;
  const cropAspect = aspect ?? (image && image.Height > 0 ? image.Width / image.Height : 4 / 3);
  return (
    <Modal opened={props.opened} onClose={() => props.onClose(null)} title="Image" size={620} zIndex={1050}>
      <Stack gap="sm" aria-busy={loading}>
        {loading ? (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">Processing…</Text>
          </Group>
        ) : null}
        <div className="gh-image-crop" data-testid="crop-box">
          {image && source ? (
            <Cropper
              key={image.ImageId}
              image={source}
              // A saved crop opens where it was left.
              {...(image.CropWidth && image.CropHeight
                ? {
                    initialCroppedAreaPixels: {
                      x: image.CropX ?? 0,
                      y: image.CropY ?? 0,
                      width: image.CropWidth,
                      height: image.CropHeight,
                    },
                  }
                : {})}
              crop={crop}
              zoom={zoom}
              aspect={cropAspect}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
              onMediaLoaded={() =>
                // From the stage as it is now, not as this render saw it: the picture may finish loading after a
                // later render (a closure's `stage` could still be an earlier step and leave the bar short of 100).
                setStage((now) =>
                  now.kind === 'uploading'
                    ? { kind: 'uploading', percent: imageUploadProgress('shown') }
                    : now,
                )
              }
              restrictPosition
              showGrid
            />
          ) : source ? (
            <img src={source} alt="" className="gh-image" style={{ maxWidth: '100%', maxHeight: '100%' }} />
          ) : (
            <Stack align="center" justify="center" h="100%" gap={4}>
              <IconPhoto size={40} aria-hidden />
              <Text size="sm" c="dimmed">
                No image yet
              </Text>
            </Stack>
          )}
        </div>
        {aspect ? (
          <Text size="xs" c="dimmed">
            This image is cropped to {aspect === 1 ? 'a square' : `a ${aspect.toFixed(2)}:1 shape`}.
          </Text>
        ) : null}
        {stage.kind === 'uploading' ? (
          <Group gap="xs">
            <Progress value={stage.percent} w={200} aria-label="Upload progress" />
            <Text size="xs" data-testid="image-progress">
              {stage.percent}%
            </Text>
          </Group>
        ) : null}
        {stage.kind === 'failed' ? (
          <Alert color="red" role="alert" title="FAILED">
            {stage.message}
          </Alert>
        ) : null}
        <Group gap="xs">
          <FileButton
            onChange={(f) => void upload(f)}
            accept={IMAGE_UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',')}
          >
            {(p) => (
              <Button {...p} variant="light" leftSection={<IconUpload size={14} />}>
                Upload an image
              </Button>
            )}
          </FileButton>
          <Button variant="default" onClick={() => setPicking(true)}>
            Choose from the library
          </Button>
        </Group>
        {image ? (
          <>
            <TextInput
              label="Title"
              value={texts.Title}
              onChange={(e) => setTexts({ ...texts, Title: e.currentTarget.value })}
            />
            <Textarea
              label="Caption"
              autosize
              minRows={1}
              value={texts.Caption}
              onChange={(e) => setTexts({ ...texts, Caption: e.currentTarget.value })}
            />
            <TextInput
              label="Alt text"
              description="Describes the image for people who cannot see it"
              value={texts.ShortDescription}
              onChange={(e) => setTexts({ ...texts, ShortDescription: e.currentTarget.value })}
            />
          </>
        ) : null}
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="red"
            onClick={() => void remove()}
            disabled={!image && !fallbackUrl}
          >
            Remove
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={() => props.onClose(null)}>
              Cancel
            </Button>
            <Button onClick={() => void save()} loading={saving} disabled={!image}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
      <SelectExistingFileDialog
        opened={picking}
        imagesOnly
        title="Choose an image from the library"
        onClose={() => setPicking(false)}
        onChoose={(entry) => void choose(entry.Id)}
      />
    </Modal>
  );
}
