/**
 * "Choose from the library" in the editors: the tenant's images by folder. Mail is read outside the product, so only
 * public images (the editors' uploads are public) can be chosen; their address is made absolute.
 */
import { FILE_ENTRY_TYPES, type FilePage } from '@guildhall/shared';
import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Image,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api-client.ts';
import { openDialog } from '../screens/dialog-store.ts';
import { StackedModal } from '../screens/dialogs.tsx';

export interface ChosenImage {
  src: string;
  alt: string;
}

function ImageLibrary({ onClose }: { onClose: (img?: ChosenImage) => void }) {
  const [folderId, setFolderId] = useState<number | null>(null);
  const page = useQuery({
    queryKey: ['editor-image-library', folderId],
    queryFn: () =>
      api.get<FilePage>(`/api/files/library?images=true${folderId ? `&folderId=${folderId}` : ''}`),
  });
  const entries = page.data?.Records ?? [];
  return (
    <StackedModal opened onClose={() => onClose()} title="Choose an image" size="xl">
      <Stack>
        <Breadcrumbs>
          <Anchor component="button" type="button" onClick={() => setFolderId(null)}>
            Library
          </Anchor>
          {(page.data?.Path ?? []).map((p) => (
            <Anchor key={p.Id} component="button" type="button" onClick={() => setFolderId(p.Id)}>
              {p.Name}
            </Anchor>
          ))}
        </Breadcrumbs>
        {page.isPending ? (
          <Loader size="sm" />
        ) : entries.length === 0 ? (
          <Alert color="gray">No images here. Upload one with “Upload an image…”.</Alert>
        ) : (
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {entries.map((e) =>
              e.Type === FILE_ENTRY_TYPES.Folder ? (
                <UnstyledButton
                  key={e.Id}
                  onClick={() => setFolderId(e.Id)}
                  aria-label={`Open folder ${e.Name}`}
                >
                  <Group gap={6}>
                    <IconFolder size={20} />
                    <Text size="sm">{e.Name}</Text>
                  </Group>
                </UnstyledButton>
              ) : (
                <UnstyledButton
                  key={e.Id}
                  disabled={!e.IsPublic || !e.Url}
                  title={e.IsPublic ? e.Name : 'Private images cannot be sent in mail'}
                  aria-label={`Choose ${e.Name}`}
                  onClick={() =>
                    e.Url && onClose({ src: new URL(e.Url, window.location.origin).toString(), alt: e.Name })
                  }
                  style={{ opacity: e.IsPublic ? 1 : 0.4 }}
                >
                  <Image src={e.Url ?? undefined} alt={e.Name} h={96} fit="contain" radius="sm" />
                  <Text size="xs" truncate>
                    {e.Name}
                  </Text>
                </UnstyledButton>
              ),
            )}
          </SimpleGrid>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose()}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}

export function openImageLibrary(): Promise<ChosenImage | undefined> {
  return openDialog<ChosenImage>((close) => <ImageLibrary onClose={close} />);
}
