import type { HelpText } from '@guildhall/shared';
import {
  ActionIcon,
  Button,
  Drawer,
  Group,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHelp } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from './api-client.ts';
import { ErrorBlock } from './error-block.tsx';
import { can, flagOn, useIdentity } from './identity.ts';
import { notifySaved } from './notify.ts';
import { useScreenHandle } from './route-handle.ts';

const helpKey = (stateName: string) => ['help', stateName] as const;
const helpUrl = (stateName: string) => `/api/help/${encodeURIComponent(stateName)}`;

/** The help button of the header and its panel (spec 000 section 2: help panel; section 7: GET /api/help). */
export function HelpButton() {
  const [opened, { open, close }] = useDisclosure(false);
  const { stateName, title } = useScreenHandle();
  if (!stateName) return null;
  return (
    <>
      <Tooltip label="Help for this screen">
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          onClick={open}
          aria-label="Help for this screen"
          aria-haspopup="dialog"
        >
          <IconHelp aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={close}
        position="right"
        size="md"
        title={`Help: ${title ?? stateName}`}
      >
        {opened ? <HelpContent stateName={stateName} /> : null}
      </Drawer>
    </>
  );
}

function HelpContent({ stateName }: { stateName: string }) {
  const me = useIdentity();
  const canEdit = can(me, 'help.manage') && flagOn(me, 'helpEditor');
  const [editing, setEditing] = useState(false);
  const query = useQuery({
    queryKey: helpKey(stateName),
    queryFn: ({ signal }) => api.get<HelpText>(helpUrl(stateName), { signal }),
  });

  if (query.isPending) {
    return (
      <Stack aria-busy="true" aria-label="Loading help">
        <Skeleton height={20} width="60%" />
        <Skeleton height={12} />
        <Skeleton height={12} />
        <Skeleton height={12} width="80%" />
      </Stack>
    );
  }
  if (query.isError) return <ErrorBlock error={query.error} onRetry={() => void query.refetch()} />;

  const help = query.data;
  if (editing) return <HelpEditor help={help} stateName={stateName} onDone={() => setEditing(false)} />;

  const empty = help.Title.trim() === '' && help.Content.trim() === '';
  return (
    <Stack>
      {empty ? (
        <Text c="dimmed">No help has been written for this screen yet.</Text>
      ) : (
        <article aria-label="Help text">
          {help.Title ? (
            <Text component="h2" fw={700} size="lg" mb="xs">
              {help.Title}
            </Text>
          ) : null}
          <Text style={{ whiteSpace: 'pre-wrap' }}>{help.Content}</Text>
        </article>
      )}
      {canEdit ? (
        <Group>
          <Button variant="light" onClick={() => setEditing(true)}>
            {empty ? 'Write help' : 'Edit help'}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function HelpEditor({ help, stateName, onDone }: { help: HelpText; stateName: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(help.Title);
  const [content, setContent] = useState(help.Content);
  const save = useMutation({
    mutationFn: () => api.put<HelpText>(helpUrl(stateName), { Title: title, Content: content }),
    onSuccess: (saved) => {
      queryClient.setQueryData(helpKey(stateName), saved);
      notifySaved();
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        {save.isError ? <ErrorBlock error={save.error} /> : null}
        <TextInput
          label="Title"
          value={title}
          maxLength={200}
          onChange={(e) => setTitle(e.currentTarget.value)}
        />
        <Textarea
          label="Content"
          description="Plain text; line breaks are kept."
          value={content}
          autosize
          minRows={8}
          maxRows={24}
          onChange={(e) => setContent(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
