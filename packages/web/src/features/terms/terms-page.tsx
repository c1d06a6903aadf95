import { displayTimeZone, LOGIN_TYPES, type LoginType, termsResource } from '@guildhall/shared';
import {
  Button,
  Card,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, RequirePermission } from '../../platform/page.tsx';
import { ListScreen } from '../../platform/screens/list-screen.tsx';
import { listSlots } from '../../platform/screens/list-slots.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';

export interface TermsRecord {
  TermsOfUseId: number;
  LoginType: LoginType;
  Title: string;
  Description: string;
  PublishedAt: string;
  PublishedBy: string | null;
  AcceptedCount: number;
}

const LOGIN_TYPE_LABEL: Record<LoginType, string> = { staff: 'Staff', member: 'Members' };
const termsKey = ['setup', 'terms'] as const;

export function TermsPage() {
  return (
    <RequirePermission permission="terms.manage">
      <TermsScreen />
    </RequirePermission>
  );
}

/**
 * The terms of use (`/a/setup/terms`): the generic list of the terms resource (every version published) embedded
 * with the feature's slots: Publish new terms in the toolbar, and the terms in force per login type, with how many
 * accepted them, as a tab.
 */
function TermsScreen() {
  const [opened, { open, close }] = useDisclosure(false);
  const slots = useMemo(
    () =>
      listSlots(termsResource, {
        description:
          'Users must accept the current terms of their login type before they can use Guildhall. Publishing new terms asks every user of that type to accept them at their next page load.',
        toolbar: (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={open}>
            Publish new terms
          </Button>
        ),
        tabs: [{ key: 'current', title: 'Terms in force', panel: <CurrentTerms /> }],
      }),
    [open],
  );
  return (
    <>
      <ListScreen resource={termsResource} slots={slots} />
      <Modal opened={opened} onClose={close} title="Publish new terms" size="lg">
        {opened ? <PublishTermsForm onDone={close} /> : null}
      </Modal>
    </>
  );
}

/** The terms in force for each login type, with who published them and how many accepted. */
function CurrentTerms() {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const query = useQuery({
    queryKey: termsKey,
    queryFn: ({ signal }) => api.get<TermsRecord[]>('/api/setup/terms/current', { signal }),
  });
  if (query.isPending) return <LoadingBlock label="Loading terms" />;
  if (query.isError) return <ErrorBlock error={query.error} onRetry={() => void query.refetch()} />;
  const current = (type: LoginType) => query.data.find((t) => t.LoginType === type);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      {LOGIN_TYPES.map((type) => {
        const terms = current(type);
        return (
          <Card
            withBorder
            key={type}
            component="section"
            aria-label={`Current terms for ${LOGIN_TYPE_LABEL[type]}`}
          >
            <Group justify="space-between" mb="xs">
              <Text fw={700} component="h2">
                {LOGIN_TYPE_LABEL[type]}
              </Text>
              {terms ? (
                <SoftBadge>{terms.AcceptedCount} accepted</SoftBadge>
              ) : (
                <SoftBadge color="gray">None published</SoftBadge>
              )}
            </Group>
            {terms ? (
              <>
                <Text fw={600}>{terms.Title}</Text>
                <Text size="xs" c="dimmed" mb="xs">
                  Published {formatDateTime(terms.PublishedAt, tz)}
                  {terms.PublishedBy ? ` by ${terms.PublishedBy}` : ''}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} lineClamp={5} title={terms.Description}>
                  {terms.Description}
                </Text>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {LOGIN_TYPE_LABEL[type]} are not asked to accept any terms.
              </Text>
            )}
          </Card>
        );
      })}
    </SimpleGrid>
  );
}

function PublishTermsForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const [loginType, setLoginType] = useState<LoginType>('member');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<{ title?: string; description?: string }>({});
  const publish = useMutation({
    mutationFn: () =>
      api.post<TermsRecord>('/api/setup/terms', {
        LoginType: loginType,
        Title: title.trim(),
        Description: description,
      }),
    onSuccess: async () => {
      notifySaved();
      await queryClient.invalidateQueries({ queryKey: termsKey });
      await queryClient.invalidateQueries({ queryKey: ['list', termsResource.name] });
      onDone();
    },
  });
  const server = isApiError(publish.error) ? publish.error : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: { title?: string; description?: string } = {};
    if (!title.trim()) found.title = 'Give the terms a title.';
    if (!description.trim()) found.description = 'Write the text of the terms.';
    setErrors(found);
    if (found.title || found.description) return;
    publish.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {publish.error ? <ErrorBlock error={publish.error} /> : null}
        <Stack gap={4}>
          <Text size="sm" fw={500} id="publish-for">
            For
          </Text>
          <SegmentedControl
            aria-labelledby="publish-for"
            value={loginType}
            onChange={(v) => setLoginType(v === 'staff' ? 'staff' : 'member')}
            data={LOGIN_TYPES.map((t) => ({ value: t, label: LOGIN_TYPE_LABEL[t] }))}
          />
        </Stack>
        <TextInput
          label="Title"
          required
          value={title}
          maxLength={200}
          error={errors.title ?? server?.fieldError('Title')}
          onChange={(e) => setTitle(e.currentTarget.value)}
          data-autofocus
        />
        <Textarea
          label="Text of the terms"
          required
          autosize
          minRows={8}
          maxRows={20}
          value={description}
          error={errors.description ?? server?.fieldError('Description')}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Text size="sm" c="dimmed">
          Once published, every {loginType === 'staff' ? 'staff' : 'member'} user must accept these terms
          before continuing. Anyone who declines is signed out.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={publish.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={publish.isPending}>
            Publish
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
