/**
 * One image of a single-image usage (the association's logo, a contact's photo): shown, and changed through the
 * image dialog by staff. Read-only where members look (the directory).
 */
import type { Image } from '@guildhall/shared';
import { Avatar, Button, Group, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { filesApi } from './files-api.ts';
import { ImageDialog } from './image-dialog.tsx';

export function useUsageImage(usageId: number, sourceId: number | null) {
  return useQuery({
    queryKey: ['images', usageId, sourceId],
    queryFn: () => filesApi.usage(usageId, sourceId),
    staleTime: 60_000,
  });
}

export function ImageSlot(props: {
  usageId: number;
  sourceId: number | null;
  label: string;
  /** Size of the shown image, in pixels (square for photos). */
  size?: number;
  readOnly?: boolean;
  round?: boolean;
}) {
  const usage = useUsageImage(props.usageId, props.sourceId);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const image: Image | undefined = usage.data?.Images[0];
  const size = props.size ?? 96;
  return (
    <Stack gap={6} align="flex-start">
      {props.round ? (
        <Avatar
          src={image?.Url ?? null}
          alt={image?.ShortDescription || props.label}
          size={size}
          radius="xl"
        />
      ) : image?.Url ? (
        <img
          src={image.Url}
          alt={image.ShortDescription || props.label}
          className="gh-image"
          style={{ maxHeight: size, display: 'block' }}
        />
      ) : null}
      {props.readOnly ? null : (
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => setOpen(true)}>
            {image ? `Change ${props.label.toLowerCase()}` : `Add ${props.label.toLowerCase()}`}
          </Button>
        </Group>
      )}
      {open ? (
        <ImageDialog
          opened
          usageId={props.usageId}
          sourceId={props.sourceId}
          imageId={image?.ImageId ?? null}
          fileId={image?.FileId ?? null}
          url={image?.Url ?? null}
          onClose={() => {
            setOpen(false);
            void queryClient.invalidateQueries({ queryKey: ['images'] });
          }}
        />
      ) : null}
    </Stack>
  );
}
