/**
 * The image manager (gallery; spec 000 and spec 001 section 2): a usage's images with upload, crop, alt text, title,
 * caption and delete through the image dialog, choosing from the file library, and the reorder dialog. Images are
 * 100 % wide at the 520 px mobile breakpoint.
 */
import { IMAGE_USAGE, type Image } from '@guildhall/shared';
import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconArrowsSort, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { LoadingBlock } from '../../platform/page.tsx';
import { filesApi } from './files-api.ts';
import { ImageDialog } from './image-dialog.tsx';
import { ImageReorderDialog } from './image-reorder-dialog.tsx';

export function ImageManager({
  usageId = IMAGE_USAGE.Gallery,
  sourceId = null,
}: {
  usageId?: number;
  sourceId?: number | null;
}) {
  const queryClient = useQueryClient();
  const key = ['images', usageId, sourceId];
  const usage = useQuery({ queryKey: key, queryFn: () => filesApi.usage(usageId, sourceId) });
  const [editing, setEditing] = useState<{ imageId: number | null } | null>(null);
  const [reordering, setReordering] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['images'] });
  const images: Image[] = usage.data?.Images ?? [];
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Button leftSection={<IconPlus size={14} />} onClick={() => setEditing({ imageId: null })}>
          Add an image
        </Button>
        <Button
          variant="default"
          leftSection={<IconArrowsSort size={14} />}
          disabled={images.length < 2}
          onClick={() => setReordering(true)}
        >
          Reorder
        </Button>
      </Group>
      {usage.error ? <ErrorBlock error={usage.error} onRetry={() => void usage.refetch()} /> : null}
      {!usage.data && !usage.error ? <LoadingBlock /> : null}
      {usage.data && images.length === 0 ? (
        <Text size="sm" c="dimmed">
          No images yet.
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, md: 4 }} spacing="sm" className="gh-gallery">
        {images.map((image) => (
          <Card key={image.ImageId} withBorder padding="xs" component="figure" m={0}>
            <button
              type="button"
              onClick={() => setEditing({ imageId: image.ImageId })}
              aria-label={`Edit ${image.Title || image.Name}`}
              style={{ border: 0, padding: 0, background: 'none', cursor: 'pointer', width: '100%' }}
            >
              <img
                src={image.Url ?? ''}
                alt={image.ShortDescription ?? ''}
                className="gh-image"
                style={{ width: '100%', height: 160, objectFit: 'cover', display: 'block' }}
              />
            </button>
            <Text component="figcaption" size="sm" mt={4} lineClamp={2}>
              {image.Title || image.Name}
              {image.Caption ? ` — ${image.Caption}` : ''}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      {editing ? (
        <ImageDialog
          opened
          usageId={usageId}
          sourceId={sourceId}
          imageId={editing.imageId}
          onClose={() => {
            setEditing(null);
            void refresh();
          }}
        />
      ) : null}
      {reordering ? (
        <ImageReorderDialog
          opened
          usageId={usageId}
          sourceId={sourceId}
          images={images}
          onClose={() => {
            setReordering(false);
            void refresh();
          }}
        />
      ) : null}
    </Stack>
  );
}
