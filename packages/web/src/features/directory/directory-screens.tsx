import { formatPhone } from '@guildhall/shared';
import { Anchor, Badge, Button, Card, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { Pager } from '../../platform/pager.tsx';
import { ContactPhoto } from '../files/index.ts';
import { DIRECTORY_PAGE_SIZE, type DirectoryContact, directoryApi, placeOf } from './directory-api.ts';

/** `/m/directory`: the member directory, listed contacts only, with search and paging. */
export function DirectoryList() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 350);
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['directory', debounced, page],
    queryFn: ({ signal }) => directoryApi.list(page, debounced, signal),
    placeholderData: keepPreviousData,
  });
  const total = list.data?.TotalRecordAvailable ?? 0;
  return (
    <>
      <PageHeader
        title="Member directory"
        description="Members and organisations listed by the association."
      />
      <Stack gap="md">
        <TextInput
          label="Search the directory"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          maw={420}
        />
        {list.error ? <ErrorBlock error={list.error} onRetry={() => void list.refetch()} /> : null}
        {!list.data && !list.error ? <LoadingBlock /> : null}
        {list.data ? (
          <>
            <Text size="sm" c="dimmed" aria-live="polite">
              {total} {total === 1 ? 'contact' : 'contacts'}
            </Text>
            {list.data.Results.length === 0 ? (
              <Text>No one in the directory matches.</Text>
            ) : (
              <SimpleGrid
                cols={{ base: 1, sm: 2, md: 3 }}
                component="ul"
                style={{ listStyle: 'none', padding: 0 }}
              >
                {list.data.Results.map((c) => (
                  <Card key={c.DirectoryContactId} withBorder component="li" data-testid="directory-card">
                    <Anchor component={Link} to={`/m/directory/${c.DirectoryContactId}`} fw={600}>
                      {c.DisplayName}
                    </Anchor>
                    {c.OrganizationName && c.ContactType !== 'organization' ? (
                      <Text size="sm">{c.OrganizationName}</Text>
                    ) : null}
                    {placeOf(c) ? (
                      <Text size="sm" c="dimmed">
                        {placeOf(c)}
                      </Text>
                    ) : null}
                    {(c.CustomFields ?? []).map((f) => (
                      <Text key={`${f.Name}\u0000${f.Value}`} size="sm" c="dimmed">
                        {f.Name}: {f.Value}
                      </Text>
                    ))}
                  </Card>
                ))}
              </SimpleGrid>
            )}
            <Pager pages={Math.ceil(total / DIRECTORY_PAGE_SIZE)} page={page} onPage={setPage} />
          </>
        ) : null}
      </Stack>
    </>
  );
}

/** The published fields of a directory contact, as label and value (absent fields are not shown at all). */
export function directoryRows(c: DirectoryContact): Array<[string, string, 'text' | 'email' | 'website']> {
  const rows: Array<[string, string | null, 'text' | 'email' | 'website']> = [
    ['Organization', c.ContactType === 'organization' ? null : c.OrganizationName, 'text'],
    ['Email', c.Email, 'email'],
    ['Phone', c.Phone ? formatPhone(c.Phone) : null, 'text'],
    ['Website', c.Website, 'website'],
    ['Address', [c.Address1, c.Address2, c.PostalCode].filter((v) => v).join(', ') || null, 'text'],
    ['City', placeOf(c) || null, 'text'],
    // The custom fields the association publishes in the directory.
    ...(c.CustomFields ?? []).map((f): [string, string, 'text'] => [f.Name, f.Value, 'text']),
  ];
  return rows.filter(
    (r): r is [string, string, 'text' | 'email' | 'website'] => r[1] !== null && r[1] !== '',
  );
}

/** DirectoryContactDetail.General (parameter DirectoryContactId): only what the server answers. */
export function DirectoryContactDetail() {
  const { DirectoryContactId = '' } = useParams();
  const contact = useQuery({
    queryKey: ['directory-contact', DirectoryContactId],
    queryFn: ({ signal }) => directoryApi.get(DirectoryContactId, signal),
  });
  if (contact.error)
    return (
      <>
        <PageHeader title="Directory" />
        <ErrorBlock error={contact.error} onRetry={() => void contact.refetch()} />
      </>
    );
  if (!contact.data) return <LoadingBlock />;
  const c = contact.data;
  return (
    <>
      <PageHeader
        title={c.DisplayName}
        description={<Badge variant="light">{c.ContactType}</Badge>}
        actions={
          <Button component={Link} to="/m/directory" variant="subtle">
            Back to the directory
          </Button>
        }
      />
      <Suspense fallback={null}>
        <ContactPhoto recordId={DirectoryContactId} readOnly />
      </Suspense>
      <Card withBorder maw={640} mt="md">
        <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '8px 16px' }}>
          {directoryRows(c).map(([term, value, kind]) => (
            <div key={`${term}\u0000${value}`} style={{ display: 'contents' }}>
              <Text component="dt" size="sm" c="dimmed">
                {term}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                {kind === 'email' ? (
                  <Anchor href={`mailto:${value}`}>{value}</Anchor>
                ) : kind === 'website' && /^https?:\/\//i.test(value) ? (
                  <Anchor href={value} target="_blank" rel="noopener noreferrer">
                    {value}
                  </Anchor>
                ) : (
                  value
                )}
              </Text>
            </div>
          ))}
        </dl>
        {directoryRows(c).length === 0 ? (
          <Text size="sm" c="dimmed">
            This contact publishes no details in the directory.
          </Text>
        ) : null}
      </Card>
    </>
  );
}
