import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Card, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconChevronLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { NotFoundPage } from '../../platform/not-found.tsx';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';

interface OutboxMessage {
  id: number | string;
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  attachments?: { filename: string; contentType: string; size: number }[];
  createdAt: string;
  sentAt: string | null;
}

function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}

export function MessagePage() {
  return (
    <RequirePermission permission="mail.read" flag="outbox">
      <MessageScreen />
    </RequirePermission>
  );
}

const backLink = (
  <Anchor component={Link} to="/a/outbox" size="sm">
    <Group gap={2}>
      <IconChevronLeft size={14} aria-hidden />
      Mail outbox
    </Group>
  </Anchor>
);

/** Links in a plain-text email, made clickable (password reset links are the reason this screen exists). */
function linkify(text: string) {
  const parts = text.split(/(https?:\/\/[^\s<>"']+)/g);
  return parts.map((part, i) =>
    /^https?:\/\//.test(part) ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string never move
      <Anchor key={i} href={part} style={{ overflowWrap: 'anywhere' }}>
        {part}
      </Anchor>
    ) : (
      part
    ),
  );
}

function MessageScreen() {
  const { id = '' } = useParams();
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const query = useQuery({
    queryKey: ['mail', 'outbox', id],
    queryFn: ({ signal }) => api.get<OutboxMessage>(`/api/mail/outbox/${encodeURIComponent(id)}`, { signal }),
  });
  const [view, setView] = useState<'text' | 'html'>('text');

  if (query.isError && isApiError(query.error) && query.error.status === 404) return <NotFoundPage />;
  if (query.isPending || query.isError) {
    return (
      <>
        <PageHeader title="Message" above={backLink} />
        {query.isPending ? <LoadingBlock label="Loading message" /> : null}
        {query.isError ? <ErrorBlock error={query.error} onRetry={() => void query.refetch()} /> : null}
      </>
    );
  }
  const m = query.data;
  const hasHtml = !!m.html;
  const showHtml = hasHtml && (view === 'html' || !m.text);
  return (
    <>
      <PageHeader title={m.subject || '(no subject)'} above={backLink} />
      <Stack maw={900}>
        <Card withBorder>
          <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '6px 16px' }}>
            <Text component="dt" size="sm" c="dimmed">
              To
            </Text>
            <Text component="dd" size="sm" m={0}>
              {m.to}
            </Text>
            <Text component="dt" size="sm" c="dimmed">
              Created
            </Text>
            <Text component="dd" size="sm" m={0}>
              {formatDateTime(m.createdAt, tz)}
            </Text>
            <Text component="dt" size="sm" c="dimmed">
              Delivery
            </Text>
            <Text component="dd" size="sm" m={0}>
              {m.sentAt
                ? `Sent ${formatDateTime(m.sentAt, tz)}`
                : 'Kept in the outbox (no mail server configured)'}
            </Text>
            {m.attachments?.length ? (
              <>
                <Text component="dt" size="sm" c="dimmed">
                  Attached
                </Text>
                <Text component="dd" size="sm" m={0}>
                  {m.attachments.map((a) => `${a.filename} (${sizeText(a.size)})`).join(', ')}
                </Text>
              </>
            ) : null}
          </dl>
        </Card>
        {hasHtml && m.text ? (
          <SegmentedControl
            aria-label="Show the message as"
            w="fit-content"
            value={view}
            onChange={(v) => setView(v === 'html' ? 'html' : 'text')}
            data={[
              { value: 'text', label: 'Text' },
              { value: 'html', label: 'Formatted' },
            ]}
          />
        ) : null}
        <Card withBorder p={showHtml ? 0 : 'lg'}>
          {showHtml ? (
            <iframe
              title="Formatted message"
              sandbox=""
              srcDoc={m.html ?? ''}
              style={{ width: '100%', minHeight: 480, border: 0, borderRadius: 'var(--mantine-radius-md)' }}
            />
          ) : (
            <Text
              component="pre"
              size="sm"
              style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', margin: 0 }}
            >
              {linkify(m.text ?? '')}
            </Text>
          )}
        </Card>
      </Stack>
    </>
  );
}
