/**
 * `/a/memberships/join-online` (membership setup): the association's public join page, `/join/:tenantId`, for
 * staff to open, copy onto the website or mail to prospects, with the membership types it offers today (those
 * open for joining online, read from the same answer the public page reads).
 */
import type { PublicJoinOptions } from '@guildhall/shared';
import { Alert, Anchor, Button, CopyButton, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';

export function JoinOnlinePage() {
  const me = useIdentity();
  const path = `/join/${me.tenant.id}`;
  const url = `${window.location.origin}${path}`;
  const options = useQuery({
    queryKey: ['public-join', me.tenant.id],
    queryFn: () => api.get<PublicJoinOptions>(`/api/memberships/public/${me.tenant.id}/options`),
  });
  return (
    <>
      <PageHeader title="Online join page" />
      <Stack gap="md" maw={720}>
        <Text>
          People who are not members yet join here on their own: they choose a membership, see its price, and
          get their first invoice. Put the address on your website or send it to prospects.
        </Text>
        <Group align="end" wrap="nowrap">
          <TextInput label="Address of the join page" value={url} readOnly style={{ flex: 1 }} />
          <CopyButton value={url}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy address'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Anchor href={path} target="_blank" rel="noopener">
          <IconExternalLink size={16} aria-hidden /> Open the join page
        </Anchor>
        {options.isLoading ? (
          <LoadingBlock />
        ) : options.data && options.data.Types.length > 0 ? (
          <div>
            <Text fw={600}>Memberships offered online</Text>
            <List>
              {options.data.Types.map((t) => (
                <List.Item key={t.MembershipTypeId}>{t.Name}</List.Item>
              ))}
            </List>
          </div>
        ) : (
          <Alert color="yellow">
            No active membership type is offered yet: add one in Membership setup, Membership types.
          </Alert>
        )}
      </Stack>
    </>
  );
}
