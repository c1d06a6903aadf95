import type { Association, Me } from '@guildhall/shared';
import { Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconBuildingCommunity, IconChevronRight } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { landingPath, switchIdentity, useIdentity } from '../../platform/identity.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { usePageTitle } from '../../platform/page-title.ts';

const ROLE: Record<string, string> = { admin: 'Administrator', staff: 'Staff', member: 'Member' };

/** Where the chooser lives; the sign-in page sends a person who belongs to several associations here. */
export const CHOOSE_ASSOCIATION_PATH = '/prompts/choose-association';

/**
 * After sign-in, a person who belongs to several associations chooses one. Choosing another than the one the
 * sign-in opened makes a session scoped to it (the same call as the header's switcher); nothing of the other shows.
 */
export function ChooseAssociationPage() {
  const me = useIdentity();
  usePageTitle('Choose an association');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = params.get('next');
  const list = useQuery({
    queryKey: ['associations', me.user.id, me.tenant.id],
    queryFn: () => api.get<Association[]>('/api/auth/associations'),
  });
  // Always through the switch, the one already open included: the choice is remembered for the next sign-in.
  const choose = useMutation({
    mutationFn: async (a: Association) => api.post<Me>(`/api/auth/associations/${a.tenantId}/switch`),
    onSuccess: async (chosen) => {
      switchIdentity(queryClient, chosen);
      await navigate(landingPath(chosen, next), { replace: true });
    },
  });
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          Choose an association
        </Title>
        <Text c="dimmed" size="sm">
          You belong to several associations. You can change later from the user menu, without signing in
          again.
        </Text>
      </div>
      {list.isPending ? <LoadingBlock label="Loading your associations" /> : null}
      {list.isError ? <ErrorBlock error={list.error} onRetry={() => void list.refetch()} /> : null}
      {choose.isError ? <ErrorBlock error={choose.error} /> : null}
      <Stack
        gap="xs"
        component="ul"
        aria-label="Your associations"
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {(list.data ?? []).map((a) => (
          <li key={a.tenantId}>
            <UnstyledButton
              w="100%"
              onClick={() => choose.mutate(a)}
              disabled={choose.isPending}
              aria-label={`${a.name}, ${ROLE[a.role] ?? a.role}`}
              style={{
                border: '1px solid var(--mantine-color-gray-3)',
                borderRadius: 8,
                padding: '12px 14px',
                display: 'flex',
                alignItems: 'center',
                gap: 12,
              }}
            >
              <IconBuildingCommunity size={22} aria-hidden color="var(--mantine-color-guild-6)" />
              <div style={{ flex: 1, minWidth: 0 }}>
                <Text fw={600} size="sm" truncate="end">
                  {a.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {ROLE[a.role] ?? a.role}
                </Text>
              </div>
              <IconChevronRight size={16} aria-hidden />
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
