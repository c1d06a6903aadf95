import type { Association } from '@guildhall/shared';
import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import {
  IconBuildingCommunity,
  IconChevronDown,
  IconKey,
  IconLogout,
  IconUser,
  IconWorld,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../platform/api-client.ts';
import { areaHome, signOut, useIdentity } from '../platform/identity.ts';

/**
 * Changes association without signing in again: the server opens a session scoped to the chosen one, and the page
 * is loaded afresh so that nothing the previous association showed stays in memory.
 */
async function switchTo(tenantId: string): Promise<void> {
  const me = await api.post<{ area: 'backoffice' | 'member' }>(`/api/auth/associations/${tenantId}/switch`);
  window.location.assign(areaHome(me));
}

/** Height of the shells' header row (the impersonation banner adds its own height above it). */
export const HEADER_HEIGHT = 56;

export function SkipLink() {
  return (
    <a className="skip-link" href="#main-content">
      Skip to main content
    </a>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts.at(-1)?.[0] ?? ''}` : (parts[0]?.slice(0, 2) ?? '');
  return letters.toUpperCase() || '?';
}

/** The user menu of both shells: who is signed in, change password, profile (member area), sign out. */
export function UserMenu({
  passwordPath,
  timeZonePath,
  profilePath,
}: {
  passwordPath: string;
  timeZonePath: string;
  profilePath?: string;
}) {
  const me = useIdentity();
  const queryClient = useQueryClient();
  const name = me.user.displayName || me.user.username;
  const associations = useQuery({
    queryKey: ['associations', me.user.id, me.tenant.id],
    queryFn: () => api.get<Association[]>('/api/auth/associations'),
    staleTime: 60_000,
    enabled: !me.impersonation,
  });
  const others = (associations.data ?? []).filter((a) => !a.current);
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton title={`Signed in as ${name}`} data-testid="user-menu">
          <Group gap={6} wrap="nowrap">
            <Avatar size={32} radius="xl" color="guild" aria-hidden>
              {initials(name)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate="end">
              {name}
            </Text>
            <VisuallyHidden>User menu</VisuallyHidden>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate="end">
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {me.user.username} · {me.tenant.name}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        {others.length > 0 ? (
          <>
            <Menu.Label>Switch association</Menu.Label>
            {others.map((a) => (
              <Menu.Item
                key={a.tenantId}
                leftSection={<IconBuildingCommunity size={16} aria-hidden />}
                onClick={() => void switchTo(a.tenantId)}
              >
                {a.name}
              </Menu.Item>
            ))}
            <Menu.Divider />
          </>
        ) : null}
        {profilePath ? (
          <Menu.Item component={Link} to={profilePath} leftSection={<IconUser size={16} aria-hidden />}>
            Profile
          </Menu.Item>
        ) : null}
        <Menu.Item component={Link} to={passwordPath} leftSection={<IconKey size={16} aria-hidden />}>
          Change password
        </Menu.Item>
        <Menu.Item component={Link} to={timeZonePath} leftSection={<IconWorld size={16} aria-hidden />}>
          Time zone
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void signOut(queryClient)}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
