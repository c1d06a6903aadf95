import { DIRECTORY_FIELDS } from '@guildhall/shared';
import { Button, Card, Checkbox, Group, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, Suspense, useState } from 'react';
import { isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { useIdentity } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { MemberCustomFields } from '../custom-fields/index.ts';
import {
  directoryApi,
  type MyProfile,
  PROFILE_FIELDS,
  type ProfileChanges,
  type ProfileField,
} from './directory-api.ts';

const LABELS: Record<ProfileField, string> = {
  Email: 'Email',
  Phone: 'Phone',
  Website: 'Website',
  Address1: 'Address 1',
  Address2: 'Address 2',
  City: 'City',
  StateProvince: 'State or province',
  PostalCode: 'Postal code',
  CountryCode: 'Country code',
};

/** `/m/profile`: the member's account details, and the contact info and directory listing they may change. */
export function MemberProfile() {
  const me = useIdentity();
  const rows: Array<[string, string]> = [
    ['Name', me.user.displayName || '—'],
    ['Username', me.user.username],
    ['Email', me.user.email || '—'],
    ['Association', me.tenant.name],
  ];
  const profile = useQuery({
    queryKey: ['my-profile'],
    queryFn: () => directoryApi.myProfile(),
    retry: false,
  });
  return (
    <>
      <PageHeader
        title="Your profile"
        description="Your account, your contact info and your directory listing."
      />
      <Stack gap="md" maw={720}>
        <Card withBorder>
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
        {profile.error &&
        isApiError(profile.error) &&
        (profile.error.status === 403 || profile.error.status === 404) ? (
          <Text size="sm" c="dimmed">
            {profile.error.message}
          </Text>
        ) : profile.error ? (
          <ErrorBlock error={profile.error} onRetry={() => void profile.refetch()} />
        ) : profile.data ? (
          <ProfileForm key={JSON.stringify(profile.data)} profile={profile.data} />
        ) : (
          <LoadingBlock />
        )}
        {profile.data ? (
          <Suspense fallback={null}>
            <MemberCustomFields />
          </Suspense>
        ) : null}
      </Stack>
    </>
  );
}

function ProfileForm({ profile }: { profile: MyProfile }) {
  const queryClient = useQueryClient();
  const initial = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, profile[f] ?? ''])) as Record<
    ProfileField,
    string
  >;
  const [values, setValues] = useState(initial);
  const [listed, setListed] = useState(profile.IsListed);
  const [published, setPublished] = useState(profile.PublishedFields);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function save(e: FormEvent) {
    e.preventDefault();
    const changes: ProfileChanges = {};
    for (const f of PROFILE_FIELDS) if (values[f] !== initial[f]) changes[f] = values[f].trim() || null;
    if (listed !== profile.IsListed) changes.IsListed = listed;
    if (published !== profile.PublishedFields) changes.PublishedFields = published;
    if (Object.keys(changes).length === 0) {
      notifySaved('Nothing to change');
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const saved = await directoryApi.saveProfile(changes);
      queryClient.setQueryData(['my-profile'], saved);
      notifySaved('Your profile is saved');
    } catch (error) {
      if (isApiError(error))
        setErrors(Object.fromEntries(Object.entries(error.errors).map(([k, v]) => [k, v.join(' ')])));
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card
      withBorder
      component="form"
      onSubmit={(e: FormEvent) => void save(e)}
      aria-labelledby="profile-contact"
    >
      <Stack gap="md">
        <Text fw={700} component="h2" id="profile-contact" m={0}>
          Contact info
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {PROFILE_FIELDS.map((f) => (
            <TextInput
              key={f}
              label={LABELS[f]}
              value={values[f]}
              error={errors[f]}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setValues((s) => ({ ...s, [f]: v }));
              }}
            />
          ))}
        </SimpleGrid>
        <Text fw={700} component="h2" m={0}>
          Member directory
        </Text>
        <Switch
          label="List me in the member directory"
          checked={listed}
          onChange={(e) => setListed(e.currentTarget.checked)}
        />
        <Checkbox.Group
          label="Show these details to other members"
          value={DIRECTORY_FIELDS.filter((d) => (published & d.Id) !== 0).map((d) => String(d.Id))}
          onChange={(v) => setPublished(v.reduce((sum, id) => sum | Number(id), 0))}
        >
          <Group gap="md" mt="xs">
            {DIRECTORY_FIELDS.map((d) => (
              <Checkbox key={d.Id} value={String(d.Id)} label={d.Name} disabled={!listed} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
