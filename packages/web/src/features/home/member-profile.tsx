import { Card, Text } from '@mantine/core';
import { useIdentity } from '../../platform/identity.ts';
import { PageHeader } from '../../platform/page.tsx';

/** `/m/profile`: the member's own account details, read from `me`. */
export function MemberProfile() {
  const me = useIdentity();
  const rows: Array<[string, string]> = [
    ['Name', me.user.displayName || '—'],
    ['Username', me.user.username],
    ['Email', me.user.email || '—'],
    ['Association', me.tenant.name],
  ];
  return (
    <>
      <PageHeader title="Your profile" description="To change these details, contact your association." />
      <Card withBorder maw={560}>
        <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '8px 16px' }}>
          {rows.map(([term, value]) => (
            <div key={term} style={{ display: 'contents' }}>
              <Text component="dt" size="sm" c="dimmed">
                {term}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </div>
          ))}
        </dl>
      </Card>
    </>
  );
}
