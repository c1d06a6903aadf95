import { IMAGE_USAGE, type TenantSettings, tenantSettingsSchema } from '@guildhall/shared';
import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, Suspense, useMemo, useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { meQueryKey } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';
import { UnsavedChangesPrompt } from '../../platform/unsaved-changes.tsx';
import { ImageSlot } from '../files/index.ts';

interface TenantSettingsAnswer {
  name: string;
  settings: TenantSettings;
}

const settingsKey = ['settings', 'tenant'] as const;
type FieldName = 'name' | keyof TenantSettings;
type Errors = Partial<Record<FieldName, string>>;

/** Every IANA zone the browser knows, plus the current value even if the browser does not know it. */
function timezoneOptions(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const set = new Set(zones);
  set.add('UTC');
  if (current) set.add(current);
  return [...set].sort();
}

/** ISO 4217 codes the browser knows, for the currency select. */
const CURRENCIES: string[] = (() => {
  try {
    return Intl.supportedValuesOf('currency');
  } catch {
    return ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF'];
  }
})();

export function SettingsPage() {
  return (
    <RequirePermission permission="settings.manage">
      <SettingsScreen />
    </RequirePermission>
  );
}

function SettingsScreen() {
  const query = useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => api.get<TenantSettingsAnswer>('/api/settings/tenant', { signal }),
  });
  return (
    <>
      <PageHeader
        title="Settings"
        description="How Guildhall works for everyone in your association: its name, list sizes, timings and defaults."
      />
      <Paper withBorder p="lg" component="section" aria-labelledby="settings-logo" maw={820} mb="lg">
        <Text fw={700} component="h2" id="settings-logo" mb="xs">
          Logo
        </Text>
        <Text size="sm" c="dimmed" mb="md">
          Shown in the header beside the association's name. It is saved as soon as you save it in the image
          dialog.
        </Text>
        <Suspense fallback={<LoadingBlock label="Loading the logo" />}>
          <ImageSlot usageId={IMAGE_USAGE.Logo} sourceId={null} label="Logo" size={64} />
        </Suspense>
      </Paper>
      {query.isPending ? <LoadingBlock label="Loading settings" /> : null}
      {query.isError ? <ErrorBlock error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? <SettingsForm key={JSON.stringify(query.data)} initial={query.data} /> : null}
    </>
  );
}

function SettingsForm({ initial }: { initial: TenantSettingsAnswer }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(initial.name);
  const [settings, setSettings] = useState<TenantSettings>(initial.settings);
  const [errors, setErrors] = useState<Errors>({});
  const zones = useMemo(
    () => timezoneOptions(initial.settings.defaultTimezone),
    [initial.settings.defaultTimezone],
  );
  const dirty = name !== initial.name || JSON.stringify(settings) !== JSON.stringify(initial.settings);

  const save = useMutation({
    mutationFn: (body: TenantSettingsAnswer) => api.put<TenantSettingsAnswer>('/api/settings/tenant', body),
    onSuccess: async (saved) => {
      notifySaved();
      queryClient.setQueryData(settingsKey, saved);
      await queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      const found: Errors = {};
      for (const field of ['name', ...Object.keys(settings)] as FieldName[]) {
        const message = error.fieldError(field, `settings.${field}`, `settings/${field}`);
        if (message) found[field] = message;
      }
      setErrors(found);
    },
  });

  const set = <K extends keyof TenantSettings>(key: K, value: TenantSettings[K]) =>
    setSettings((prev) => ({ ...prev, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    const trimmed = name.trim();
    if (!trimmed) found.name = 'Enter the name of your association.';
    else if (trimmed.length > 200) found.name = 'Keep the name under 200 characters.';
    const parsed = tenantSettingsSchema.safeParse(settings);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if (typeof key === 'string' && key in settings) found[key as keyof TenantSettings] ??= issue.message;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({ name: trimmed, settings });
  };

  const numberValue = (value: string | number) => (typeof value === 'number' ? value : Number.NaN);

  return (
    <form onSubmit={submit} noValidate>
      <UnsavedChangesPrompt when={dirty && !save.isPending} />
      <Stack gap="lg" maw={820}>
        {save.error && Object.keys(errors).length === 0 ? <ErrorBlock error={save.error} /> : null}
        {save.error && Object.keys(errors).length > 0 ? (
          <ErrorBlock
            message="Some settings need another look; see the highlighted fields."
            isKnown
            title="Not saved"
          />
        ) : null}

        <Paper withBorder p="lg" component="section" aria-labelledby="settings-general">
          <Text fw={700} component="h2" id="settings-general" mb="md">
            General
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Association name"
              description="Shown in the header and in emails."
              required
              value={name}
              error={errors.name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Select
              label="Default timezone"
              description="Dates and times are shown in this timezone."
              data={zones}
              searchable
              limit={50}
              nothingFoundMessage="No timezone matches"
              // Typing replaces the current zone instead of appending to it.
              onFocus={(e) => e.currentTarget.select()}
              value={settings.defaultTimezone}
              onChange={(value) => value && set('defaultTimezone', value)}
              allowDeselect={false}
              error={errors.defaultTimezone}
            />
            <TextInput
              label="Website prefix"
              description="Added to website addresses typed without http://, https://, ftp:// or ftps://."
              value={settings.websitePrefix}
              error={errors.websitePrefix}
              onChange={(e) => set('websitePrefix', e.currentTarget.value)}
            />
            <Select
              label="Currency"
              description="The money of prices, invoices and payments."
              data={CURRENCIES}
              searchable
              limit={50}
              value={settings.currency ?? 'USD'}
              onChange={(value) => value && set('currency', value)}
              allowDeselect={false}
              error={errors.currency}
            />
            <Textarea
              label="Address"
              description="The association's postal address, shown on its letters and invoices."
              autosize
              minRows={2}
              maxRows={5}
              value={settings.address ?? ''}
              error={errors.address}
              onChange={(e) => set('address', e.currentTarget.value)}
            />
          </SimpleGrid>
        </Paper>

        <Paper withBorder p="lg" component="section" aria-labelledby="settings-lists">
          <Text fw={700} component="h2" id="settings-lists" mb="md">
            Lists, drafts and notifications
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label="List page size"
              description="Rows per page, 5 to 500."
              min={5}
              max={500}
              clampBehavior="blur"
              allowDecimal={false}
              value={settings.listPageSize}
              error={errors.listPageSize}
              onChange={(v) => set('listPageSize', numberValue(v))}
            />
            <NumberInput
              label="Draft duration (minutes)"
              description="How long unsaved drafts are kept, up to 7 days."
              min={1}
              max={10_080}
              clampBehavior="blur"
              allowDecimal={false}
              value={settings.draftDurationMinutes}
              error={errors.draftDurationMinutes}
              onChange={(v) => set('draftDurationMinutes', numberValue(v))}
            />
            <NumberInput
              label="Notification duration (seconds)"
              description="How long messages like “We saved it!” stay, 1 to 60 seconds."
              min={1}
              max={60}
              step={0.5}
              decimalScale={1}
              clampBehavior="blur"
              value={settings.notificationDurationMs / 1000}
              error={errors.notificationDurationMs}
              onChange={(v) => set('notificationDurationMs', Math.round(numberValue(v) * 1000))}
            />
          </SimpleGrid>
        </Paper>

        <Group justify="flex-end">
          <Button
            variant="default"
            disabled={!dirty || save.isPending}
            onClick={() => {
              setName(initial.name);
              setSettings(initial.settings);
              setErrors({});
            }}
          >
            Discard changes
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!dirty}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
