import { displayTimeZone, type Me } from '@guildhall/shared';
import { Button, Group, Paper, Radio, Select, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../platform/api-client.ts';
import { useTimezoneOptions } from '../../platform/fields/field-inputs.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { setMe, useIdentity } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { PageHeader } from '../../platform/page.tsx';

/**
 * Account > Time zone, in both areas: every time the product shows (lists, records, the audit log, calendars) is in
 * this zone and says so. By default the association's; a person who works from elsewhere chooses their own.
 */
export function TimeZonePage() {
  const me = useIdentity();
  const queryClient = useQueryClient();
  const association = me.tenant.settings.defaultTimezone;
  const [mode, setMode] = useState<'association' | 'own'>(me.user.timeZone ? 'own' : 'association');
  const [zone, setZone] = useState<string | null>(me.user.timeZone ?? association);
  const [busy, setBusy] = useState(false);
  const options = useTimezoneOptions(zone);
  const labelOf = (tz: string) => options.find((o) => o.value === tz)?.label ?? tz;
  const chosen = mode === 'own' ? zone : null;
  const save = async () => {
    setBusy(true);
    try {
      const next = await api.put<Me>('/api/auth/me/time-zone', { TimeZone: chosen });
      setMe(queryClient, next);
      notifySaved(`Times are now shown in ${labelOf(displayTimeZone(next))}.`);
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };
  const preview = chosen ?? association;
  return (
    <>
      <PageHeader
        title="Time zone"
        description="Every time you see is shown in this zone, and says which zone it is."
      />
      <Paper withBorder p="lg" maw={560}>
        <Stack gap="md">
          <Radio.Group
            label="Show times in"
            value={mode}
            onChange={(v) => setMode(v === 'own' ? 'own' : 'association')}
          >
            <Stack gap="xs" mt="xs">
              <Radio value="association" label={`The association's time zone: ${labelOf(association)}`} />
              <Radio value="own" label="My own time zone" />
            </Stack>
          </Radio.Group>
          {mode === 'own' ? (
            <Select
              label="My time zone"
              data={options}
              value={zone}
              onChange={setZone}
              searchable
              limit={50}
              allowDeselect={false}
            />
          ) : null}
          <Text size="sm" c="dimmed" role="status">
            Now: {formatDateTime(new Date().toISOString(), preview)}
          </Text>
          <Group justify="flex-end">
            <Button onClick={() => void save()} loading={busy} disabled={mode === 'own' && !zone}>
              Save
            </Button>
          </Group>
        </Stack>
      </Paper>
    </>
  );
}
