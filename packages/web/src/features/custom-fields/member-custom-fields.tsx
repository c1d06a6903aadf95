/**
 * The member's own custom fields on their profile (`/m/profile`): those the association lets members see, and
 * change where it lets them (GET and PUT /api/custom-fields/my-profile). Nothing shows when there are none.
 */
import type { RecordCustomValues } from '@guildhall/shared';
import { Card, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { notifySaved } from '../../platform/notify.ts';
import { useFieldContext } from '../../platform/screens/field-context.ts';
import { CustomValuesForm } from './custom-values-form.tsx';

const URL = '/api/custom-fields/my-profile';
const KEY = ['custom-fields', 'my-profile'];

export default function MemberCustomFields() {
  const context = useFieldContext();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get<RecordCustomValues>(URL, { signal }),
    retry: false,
  });
  const save = useMutation({
    mutationFn: (Values: Record<string, unknown>) => api.put<RecordCustomValues>(URL, { Values }),
    onSuccess: (data) => {
      client.setQueryData(KEY, data);
      notifySaved();
    },
  });
  if (!query.data || query.data.Fields.length === 0) return null;
  return (
    <Card withBorder component="section" aria-label="More about you">
      <Text fw={700} mb="xs" component="h2">
        More about you
      </Text>
      <CustomValuesForm
        data={query.data}
        context={context}
        uploadUrl=""
        saving={save.isPending}
        error={save.error}
        onSave={(values) => save.mutate(values)}
        emptyText=""
      />
    </Card>
  );
}
