/** The Custom fields tab of a record whose resource declares `customFields`: its values as a paged form. */
import type { RecordCustomValues } from '@guildhall/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { useFieldContext } from '../../platform/screens/field-context.ts';
import { CustomValuesForm } from './custom-values-form.tsx';

export default function CustomFieldsTab({ resource, recordId }: RecordActionProps) {
  const entity = resource.customFields?.entity ?? '';
  const url = `/api/custom-fields/values/${encodeURIComponent(entity)}/${encodeURIComponent(recordId)}`;
  const key = ['custom-fields', 'values', entity, recordId];
  const context = useFieldContext();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<RecordCustomValues>(url, { signal }),
  });
  const save = useMutation({
    mutationFn: (Values: Record<string, unknown>) => api.put<RecordCustomValues>(url, { Values }),
    onSuccess: (data) => {
      client.setQueryData(key, data);
      notifySaved();
    },
  });
  if (query.error) return <ErrorBlock error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <LoadingBlock label="Loading custom fields" />;
  // A contact's uploads go among the contact's files.
  const uploadUrl =
    entity === 'Contact'
      ? `/api/files/upload?contactId=${encodeURIComponent(recordId)}`
      : '/api/files/upload';
  return (
    <CustomValuesForm
      data={query.data}
      context={context}
      uploadUrl={uploadUrl}
      saving={save.isPending}
      error={save.error}
      onSave={(values) => save.mutate(values)}
      emptyText="No custom fields yet. Staff with the setup permission add them under Setup › Custom fields."
    />
  );
}
