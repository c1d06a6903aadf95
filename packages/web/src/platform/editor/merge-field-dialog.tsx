/**
 * The merge fields dialog (spec 001 sections 2, 4 and 8): choose exactly one field of the context, fill its
 * parameters, optionally tick "Update merge field content" (replace the selected chip instead of inserting one),
 * then "Save & Close", which stays disabled while no field is chosen or the form is invalid.
 */
import { checkMergeParams, type MergeField, mergeFieldUnavailable, NO_MERGE_FIELDS } from '@guildhall/shared';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api } from '../api-client.ts';
import { openDialog } from '../screens/dialog-store.ts';
import { StackedModal } from '../screens/dialogs.tsx';
import type { MergeFieldAttrs } from './merge-field-node.ts';

export interface MergeContext {
  flags: number;
  templateType: number | string;
  entity: string;
}

export interface MergeFieldChoice {
  attrs: MergeFieldAttrs;
  /** Replace the selected chip rather than insert a new one. */
  update: boolean;
}

export function mergeFieldsUrl(ctx: MergeContext): string {
  return `/api/communication/mergefields/${ctx.flags}/${encodeURIComponent(String(ctx.templateType))}/${encodeURIComponent(ctx.entity)}`;
}

function ParameterInput({
  field,
  name,
  value,
  error,
  onChange,
}: {
  field: MergeField;
  name: string;
  value: string;
  error: string | undefined;
  onChange: (v: string) => void;
}) {
  const p = field.Parameters.find((x) => x.Name === name);
  if (!p) return null;
  const common = { label: p.Name, description: p.Description, error };
  if (p.Type === 'Select')
    return (
      <Select
        {...common}
        data={p.Options.map((o) => ({ value: o.Key, label: o.Value }))}
        value={value || null}
        onChange={(v) => onChange(v ?? '')}
        comboboxProps={{ withinPortal: false }}
      />
    );
  if (p.Type === 'Number')
    return (
      <NumberInput
        {...common}
        value={value === '' ? '' : Number(value)}
        allowDecimal={false}
        allowNegative={false}
        onChange={(v) => onChange(v === '' ? '' : String(v))}
      />
    );
  if (p.Type === 'Date')
    return (
      <TextInput {...common} type="date" value={value} onChange={(e) => onChange(e.currentTarget.value)} />
    );
  return <TextInput {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)} />;
}

function MergeFieldDialog({
  context,
  current,
  onClose,
}: {
  context: MergeContext;
  current: MergeFieldAttrs | null;
  onClose: (choice?: MergeFieldChoice) => void;
}) {
  const fields = useQuery({
    queryKey: ['merge-fields', context.flags, context.templateType, context.entity],
    queryFn: () => api.get<MergeField[]>(mergeFieldsUrl(context)),
    staleTime: 60_000,
  });
  const [name, setName] = useState<string | null>(current?.name ?? null);
  const [params, setParams] = useState<Record<string, string>>(current?.params ?? {});
  const [update, setUpdate] = useState(current !== null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const field = fields.data?.find((f) => f.Name === name) ?? null;
  const missing = name !== null && fields.data !== undefined && !field;
  const check = useMemo(() => (field ? checkMergeParams(field, params) : null), [field, params]);
  const valid = field !== null && check !== null && Object.keys(check.errors).length === 0;

  const groups = useMemo(() => {
    const byGroup = new Map<string, { value: string; label: string }[]>();
    for (const f of fields.data ?? []) {
      const list = byGroup.get(f.GroupName) ?? [];
      list.push({ value: f.Name, label: `${f.Name.split('.').pop() ?? f.Name} — ${f.Description}` });
      byGroup.set(f.GroupName, list);
    }
    return [...byGroup].map(([group, items]) => ({ group, items }));
  }, [fields.data]);

  const save = async () => {
    if (!field || !check) return;
    setSaving(true);
    setServerError(null);
    try {
      const [, label] = await api.post<string[]>(
        `/api/communication/resolvemergefield/${encodeURIComponent(field.Name)}`,
        check.params,
      );
      onClose({ attrs: { name: field.Name, params: check.params, label: label ?? field.Name }, update });
    } catch (e) {
      setServerError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <StackedModal opened onClose={() => onClose()} title="Merge fields" size="lg">
      {fields.isPending ? (
        <Group justify="center" p="lg">
          <Loader size="sm" />
        </Group>
      ) : fields.isError ? (
        <Alert color="red">{fields.error.message}</Alert>
      ) : (fields.data?.length ?? 0) === 0 ? (
        <Alert color="gray">{NO_MERGE_FIELDS}</Alert>
      ) : (
        <Stack>
          {missing && name ? <Alert color="orange">{mergeFieldUnavailable(name)}</Alert> : null}
          <Select
            label="Merge field"
            placeholder="Choose a field"
            searchable
            data={groups}
            value={field ? name : null}
            onChange={(v) => {
              setName(v);
              setParams({});
            }}
            comboboxProps={{ withinPortal: false }}
            maxDropdownHeight={280}
          />
          {field ? (
            <>
              <Text size="sm" c="dimmed">
                {field.Description}
                {field.IsUber ? ' (a block of several lines)' : ''}
              </Text>
              {field.Parameters.map((p) => (
                <ParameterInput
                  key={p.Name}
                  field={field}
                  name={p.Name}
                  value={params[p.Name] ?? p.Default ?? ''}
                  error={check?.errors[p.Name]}
                  onChange={(v) => setParams((prev) => ({ ...prev, [p.Name]: v }))}
                />
              ))}
            </>
          ) : null}
          {current ? (
            <Checkbox
              label="Update merge field content"
              description="Replace the selected merge field instead of inserting another one"
              checked={update}
              onChange={(e) => setUpdate(e.currentTarget.checked)}
            />
          ) : null}
          {serverError ? <Alert color="red">{serverError}</Alert> : null}
        </Stack>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => onClose()}>
          Cancel
        </Button>
        <Button onClick={save} disabled={!valid} loading={saving}>
          Save &amp; Close
        </Button>
      </Group>
    </StackedModal>
  );
}

/** Opens the dialog; resolves with the chosen field, or undefined when closed without one. */
export function openMergeFieldDialog(
  context: MergeContext,
  current: MergeFieldAttrs | null,
): Promise<MergeFieldChoice | undefined> {
  return openDialog<MergeFieldChoice>((close) => (
    <MergeFieldDialog context={context} current={current} onClose={close} />
  ));
}
