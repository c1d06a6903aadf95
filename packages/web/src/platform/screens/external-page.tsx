import { type ExternalUrlDeclaration, safeExternalUrl } from '@guildhall/shared';
import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { ErrorBlock } from '../error-block.tsx';
import { PageHeader } from '../page.tsx';
import { resourceByRoute } from './resources.ts';
import { screenOptionsOf } from './screen-options.ts';

function hostOf(href: string): string {
  return /^https:\/\/([^/:?#]+)/i.exec(href)?.[1] ?? href;
}

/**
 * ExternalUrl: a page outside the product. It is never framed (the product's content security policy frames
 * nothing, and a framed site could pose as the product); it opens in a new tab with no opener and no referrer,
 * and only `https:` addresses or paths of this site are accepted (decision 0054).
 */
export function ExternalPanel({
  page,
  headingLevel = 2,
}: {
  page: ExternalUrlDeclaration;
  headingLevel?: 2 | 3;
}) {
  const safe = safeExternalUrl(page.url);
  if (!safe) return <ErrorBlock message="This address cannot be opened from Guildhall." isKnown />;
  return (
    <Card withBorder padding="lg" component="section" aria-label={page.title} data-external-url>
      <Stack gap="sm" align="flex-start">
        <Title order={headingLevel} size="h4">
          {page.title}
        </Title>
        {page.description ? <Text size="sm">{page.description}</Text> : null}
        {safe.sameSite ? null : (
          <Alert variant="light" title="This page is outside Guildhall" w="100%">
            It opens on {hostOf(safe.href)} in a new tab. Guildhall does not send it your session or this
            address.
          </Alert>
        )}
        <Button
          component="a"
          href={safe.href}
          target="_blank"
          rel="noopener noreferrer"
          referrerPolicy="no-referrer"
          rightSection={<IconExternalLink size={16} aria-hidden />}
        >
          Open {page.title}
        </Button>
      </Stack>
    </Card>
  );
}

/** `/micronet/external/:feature/:subfeature/:key`: an external page a resource declares. */
export function ExternalUrlRoute() {
  const { feature = '', subfeature = '', key = '' } = useParams();
  const resource = resourceByRoute(feature, subfeature);
  const page = resource ? screenOptionsOf(resource).externalUrls?.find((e) => e.key === key) : undefined;
  return (
    <>
      <PageHeader title={page?.title ?? 'External page'} />
      {page ? (
        <div style={{ maxWidth: 640 }}>
          <ExternalPanel page={page} headingLevel={2} />
        </div>
      ) : (
        <ErrorBlock message="There is no screen at this address." isKnown />
      )}
    </>
  );
}
