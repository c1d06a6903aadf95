/**
 * Setup › Custom fields: the fields the association adds to each entity that takes them (contacts, and every
 * resource declaring `customFields`). Add and edit a field (name, help, type, required, default, page, order,
 * visibility, directory, search), its choices (add, rename, hide, reorder, delete; the built-in Other of a fill-in
 * stays), branching (a choice's GoTo page), and change its type after a dry run that says what becomes of the
 * stored values.
 */
import {
  BRANCHING_DATA_TYPES,
  CUSTOM_FIELD_DATA_TYPES,
  CUSTOM_FIELD_VISIBILITIES,
  type CustomField,
  type CustomFieldVisibility,
  canDeleteChoice,
  changeCustomFieldType,
  customFieldDeclaration,
  DROPDOWN_DATA_TYPES,
  type SelectListItem,
  type TypeChangeOutcome,
} from '@guildhall/shared';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconEye, IconEyeOff, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { FIELD_REGISTRY } from '../../platform/fields/field-registry.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';
import { useFieldContext } from '../../platform/screens/field-context.ts';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { pillLayout } from '../../platform/text-mode.tsx';

const T = CUSTOM_FIELD_DATA_TYPES;

/** The data types as people name them, in the order the type menu offers them. */
export const DATA_TYPE_LABELS: Record<number, string> = {
  [T.Text]: 'Text',
  [T.MultiLineText]: 'Long text',
  [T.Number]: 'Number',
  [T.Currency]: 'Currency',
  [T.Date]: 'Date',
  [T.DateTime]: 'Date and time',
  [T.Checkbox]: 'Checkbox',
  [T.YesNo]: 'Yes / No',
  [T.Dropdown]: 'Dropdown',
  [T.DropdownWithFillIn]: 'Dropdown with fill-in (Other)',
  [T.MultiChoice]: 'Multiple choice',
  [T.Email]: 'Email',
  [T.Phone]: 'Phone',
  [T.Website]: 'Website',
  [T.FileUpload]: 'File',
  [T.SectionHeading]: 'Section heading',
};
const TYPE_OPTIONS = Object.entries(DATA_TYPE_LABELS).map(([value, label]) => ({ value, label }));

export const VISIBILITY_LABELS: Record<CustomFieldVisibility, string> = {
  staff: 'Staff only',
  memberRead: 'Member may see',
  memberEdit: 'Member may edit',
};

const hasChoices = (type: number) => DROPDOWN_DATA_TYPES.includes(type) || type === T.YesNo;

type Draft = Omit<CustomField, 'CustomFieldId' | 'Version' | 'ValueCount'> & {
  CustomFieldId?: number;
  Version?: number;
};

function emptyDraft(entity: string, page: number, scopeId: number | null): Draft {
  return {
    Entity: entity,
    ScopeId: scopeId,
    Name: '',
    HelpText: null,
    CustomFieldDataTypeId: T.Text,
    Required: false,
    DefaultValue: null,
    PageNumber: page,
    SortOrder: 0,
    // A question of one record (an event's registration) is asked of members unless staff say otherwise.
    Visibility: scopeId === null ? 'staff' : 'memberEdit',
    InDirectory: false,
    Searchable: false,
    IsPublic: false,
    IsArchived: false,
    SelectListItems: [],
  };
}

export function CustomFieldsPage() {
  return (
    <RequirePermission permission="settings.manage">
      <CustomFieldsScreen />
    </RequirePermission>
  );
}

function CustomFieldsScreen() {
  const entities = useQuery({
    queryKey: ['custom-fields', 'entities'],
    queryFn: ({ signal }) =>
      api.get<{ Entity: string; Title: string }[]>('/api/custom-fields/entities', { signal }),
  });
  const [entity, setEntity] = useState<string | null>(null);
  const current = entity ?? entities.data?.[0]?.Entity ?? null;
  return (
    <>
      <PageHeader
        title="Custom fields"
        description="Fields of your own on contacts and other records: shown on the record in pages, checked on every save, and, where you allow it, seen or edited by members."
      />
      {entities.error ? <ErrorBlock error={entities.error} onRetry={() => void entities.refetch()} /> : null}
      {entities.data && entities.data.length > 1 ? (
        <SegmentedControl
          mb="md"
          value={current ?? ''}
          onChange={setEntity}
          data={entities.data.map((e) => ({ value: e.Entity, label: e.Title }))}
        />
      ) : null}
      {current ? <FieldsOfEntity entity={current} /> : <LoadingBlock />}
    </>
  );
}

/**
 * The fields of an entity and their editor: those of no scope (Setup › Custom fields), or with `scopeId` those
 * belonging to one record (an event's registration questions, on the event).
 */
export function FieldsOfEntity({
  entity,
  scopeId = null,
  noun = 'field',
}: {
  entity: string;
  scopeId?: number | null;
  noun?: string;
}) {
  const key = ['custom-fields', 'definitions', entity, scopeId];
  const client = useQueryClient();
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.get<CustomField[]>(
        `/api/custom-fields?entity=${encodeURIComponent(entity)}${scopeId === null ? '' : `&scope=${scopeId}`}`,
        { signal },
      ),
  });
  const [editing, setEditing] = useState<Draft | null>(null);
  const [changingType, setChangingType] = useState<CustomField | null>(null);
  const [deleting, setDeleting] = useState<CustomField | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['custom-fields'] });
  const remove = useMutation({
    mutationFn: (f: CustomField) => api.delete(`/api/custom-fields/${f.CustomFieldId}`),
    onSuccess: () => {
      setDeleting(null);
      notifySaved('Field deleted.');
      void refresh();
    },
  });
  if (query.error) return <ErrorBlock error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <LoadingBlock label="Loading custom fields" />;
  const fields = query.data;
  const lastPage = Math.max(1, ...fields.map((f) => f.PageNumber));
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {fields.length === 0
            ? `No ${noun === 'field' ? 'custom field' : noun}s yet.`
            : `${fields.length} ${noun}${fields.length === 1 ? '' : 's'} on ${lastPage} page${lastPage === 1 ? '' : 's'}.`}
        </Text>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setEditing(emptyDraft(entity, lastPage, scopeId))}
        >
          Add {noun}
        </Button>
      </Group>
      {fields.length > 0 ? (
        <Table striped highlightOnHover withTableBorder aria-label="Custom fields">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Page</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Who sees it</Table.Th>
              <Table.Th>Values</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((f) => (
              <Table.Tr key={f.CustomFieldId}>
                <Table.Td>{f.PageNumber}</Table.Td>
                <Table.Td>
                  <Group gap={6}>
                    <Text fw={600} size="sm">
                      {f.Name}
                    </Text>
                    {f.Required ? <SoftBadge color="red">Required</SoftBadge> : null}
                    {f.InDirectory ? <SoftBadge color="teal">Directory</SoftBadge> : null}
                    {f.Searchable ? <SoftBadge color="grape">Searchable</SoftBadge> : null}
                    {f.IsArchived ? <SoftBadge color="gray">Archived</SoftBadge> : null}
                  </Group>
                  {f.HelpText ? (
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      {f.HelpText}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {DATA_TYPE_LABELS[f.CustomFieldDataTypeId] ?? f.CustomFieldDataTypeId}
                  </Text>
                  {hasChoices(f.CustomFieldDataTypeId) ? (
                    <Text size="xs" c="dimmed">
                      {f.SelectListItems.filter((c) => !c.isDeleted && !c.IsHidden)
                        .map((c) => c.Name)
                        .join(', ')}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={f.Visibility === 'staff' ? 'gray' : 'blue'}
                    {...pillLayout(1)}
                  >
                    {VISIBILITY_LABELS[f.Visibility]}
                  </Badge>
                </Table.Td>
                <Table.Td>{f.ValueCount ?? 0}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="compact-sm" variant="default" onClick={() => setEditing(f)}>
                      Edit
                    </Button>
                    <Button size="compact-sm" variant="default" onClick={() => setChangingType(f)}>
                      Change type
                    </Button>
                    <Tooltip label={`Delete ${f.Name}`}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${f.Name}`}
                        onClick={() => setDeleting(f)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {editing ? (
        <FieldEditor
          draft={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      ) : null}
      {changingType ? (
        <TypeChangeDialog
          field={changingType}
          onClose={() => setChangingType(null)}
          onApplied={() => {
            setChangingType(null);
            void refresh();
          }}
        />
      ) : null}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete field">
        {deleting ? (
          <Stack>
            <Text>
              Delete <b>{deleting.Name}</b>? It disappears from every form and list. The{' '}
              {deleting.ValueCount ?? 0} stored value(s) are kept on file but no longer shown.
            </Text>
            {remove.error ? <ErrorBlock error={remove.error} /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                Cancel
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(deleting)}>
                Delete
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Stack>
  );
}

/** The choices editor: add, rename, hide, reorder, delete (saved choices are kept as deleted), branch. */
function ChoicesEditor({
  type,
  page,
  items,
  onChange,
}: {
  type: number;
  page: number;
  items: SelectListItem[];
  onChange: (items: SelectListItem[]) => void;
}) {
  const branching = BRANCHING_DATA_TYPES.includes(type);
  const live = items.map((c, index) => ({ c, index })).filter(({ c }) => !c.isDeleted);
  const set = (index: number, patch: Partial<SelectListItem>) =>
    onChange(items.map((c, i) => (i === index ? { ...c, ...patch } : c)));
  const move = (index: number, by: -1 | 1) => {
    const order = live.map(({ index: i }) => i);
    const at = order.indexOf(index);
    const swapWith = order[at + by];
    if (swapWith === undefined) return;
    const next = [...items];
    const a = next[index];
    const b = next[swapWith];
    if (!a || !b) return;
    next[index] = b;
    next[swapWith] = a;
    onChange(next);
  };
  const remove = (index: number) => {
    const c = items[index];
    if (!c || !canDeleteChoice(c)) return;
    onChange(
      c.Id > 0
        ? items.map((x, i) => (i === index ? { ...x, isDeleted: true } : x))
        : items.filter((_, i) => i !== index),
    );
  };
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        Choices
      </Text>
      {type === T.YesNo ? (
        <Text size="xs" c="dimmed">
          A yes/no field always has the choices Yes and No.
        </Text>
      ) : null}
      {live.map(({ c, index }, n) => (
        <Group key={`${c.Id}-${index}`} gap={6} wrap="nowrap" align="flex-end">
          <TextInput
            aria-label={`Choice ${n + 1}`}
            value={c.Name}
            disabled={Boolean(c.DisableUpdate) || type === T.YesNo}
            onChange={(e) => set(index, { Name: e.currentTarget.value })}
            style={{ flex: 1 }}
            description={
              c.DisableUpdate ? 'Built in: the fill-in answer. It cannot be renamed or deleted.' : undefined
            }
          />
          {branching ? (
            <NumberInput
              aria-label={`Go to page after ${c.Name || `choice ${n + 1}`}`}
              placeholder="Go to page"
              min={page + 1}
              max={50}
              w={120}
              value={c.GoTo ?? ''}
              onChange={(v) => set(index, { GoTo: typeof v === 'number' ? v : null })}
            />
          ) : null}
          {c.DisableUpdate || type === T.YesNo ? null : (
            <>
              <Tooltip
                label={c.IsHidden ? 'Hidden: not offered any more. Show it' : 'Hide: no longer offered'}
              >
                <ActionIcon
                  variant="subtle"
                  aria-label={c.IsHidden ? `Show ${c.Name}` : `Hide ${c.Name}`}
                  onClick={() => set(index, { IsHidden: !c.IsHidden })}
                >
                  {c.IsHidden ? <IconEyeOff size={16} /> : <IconEye size={16} />}
                </ActionIcon>
              </Tooltip>
              <ActionIcon variant="subtle" aria-label={`Move ${c.Name} up`} onClick={() => move(index, -1)}>
                <IconArrowUp size={16} />
              </ActionIcon>
              <ActionIcon variant="subtle" aria-label={`Move ${c.Name} down`} onClick={() => move(index, 1)}>
                <IconArrowDown size={16} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${c.Name}`}
                onClick={() => remove(index)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </>
          )}
        </Group>
      ))}
      {type === T.YesNo ? null : (
        <Group>
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() =>
              onChange([
                // New choices go before the built-in Other.
                ...items.filter((c) => !c.DisableUpdate),
                { Id: 0, Name: '', GoTo: null, DisableUpdate: false, IsHidden: false, isDeleted: false },
                ...items.filter((c) => c.DisableUpdate),
              ])
            }
          >
            Add choice
          </Button>
        </Group>
      )}
      {branching ? (
        <Text size="xs" c="dimmed">
          “Go to page” sends the form to a later page when that choice is picked; a page before this field’s
          page is cleared when saved.
        </Text>
      ) : null}
    </Stack>
  );
}

function FieldEditor({
  draft,
  onClose,
  onSaved,
}: {
  draft: Draft;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [d, setD] = useState<Draft>(draft);
  const creating = draft.CustomFieldId === undefined;
  const context = useFieldContext();
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const save = useMutation({
    mutationFn: (body: Draft) =>
      creating
        ? api.post<CustomField>('/api/custom-fields', body)
        : api.put<CustomField>(`/api/custom-fields/${draft.CustomFieldId}`, body),
    onSuccess: () => {
      notifySaved(creating ? 'Field added.' : 'Field saved.');
      onSaved();
    },
  });
  const declaration = customFieldDeclaration({ ...d, CustomFieldId: 0, Required: false });
  const DefaultInput = declaration ? FIELD_REGISTRY[declaration.type].Input : null;
  const err = (name: string) => (isApiError(save.error) ? save.error.fieldError(name) : undefined);
  return (
    <Modal opened onClose={onClose} title={creating ? 'Add a custom field' : `Edit ${draft.Name}`} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(d);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Name"
            required
            value={d.Name}
            error={err('Name')}
            onChange={(e) => set({ Name: e.currentTarget.value })}
          />
          <Textarea
            label="Help text"
            description="Shown beside the field on the form."
            value={d.HelpText ?? ''}
            autosize
            minRows={1}
            onChange={(e) => set({ HelpText: e.currentTarget.value || null })}
          />
          <Select
            label="Data type"
            data={TYPE_OPTIONS}
            value={String(d.CustomFieldDataTypeId)}
            allowDeselect={false}
            disabled={!creating}
            description={
              creating
                ? undefined
                : 'Use “Change type” in the list: it shows first what becomes of the stored values.'
            }
            // While adding, the type's own choices come from the type-change rules (Yes and No, the built-in Other).
            onChange={(v) => {
              if (!v) return;
              const changed = changeCustomFieldType(d, Number(v));
              set({
                CustomFieldDataTypeId: changed.CustomFieldDataTypeId,
                SelectListItems: changed.SelectListItems,
                DefaultValue: null,
              });
            }}
          />
          <SimpleGrid cols={2}>
            <NumberInput
              label="Page"
              description="Forms show one page at a time."
              min={1}
              max={50}
              value={d.PageNumber}
              onChange={(v) => set({ PageNumber: typeof v === 'number' ? v : 1 })}
            />
            <NumberInput
              label="Order on the page"
              min={0}
              max={100000}
              value={d.SortOrder}
              onChange={(v) => set({ SortOrder: typeof v === 'number' ? v : 0 })}
            />
          </SimpleGrid>
          <Select
            label="Who sees it"
            data={CUSTOM_FIELD_VISIBILITIES.map((v) => ({ value: v, label: VISIBILITY_LABELS[v] }))}
            value={d.Visibility}
            allowDeselect={false}
            onChange={(v) => v && set({ Visibility: v as CustomFieldVisibility })}
          />
          <Group>
            <Checkbox
              label="Required"
              checked={d.Required}
              onChange={(e) => set({ Required: e.currentTarget.checked })}
            />
            <Checkbox
              label="Shown in the member directory"
              checked={d.InDirectory}
              onChange={(e) => set({ InDirectory: e.currentTarget.checked })}
            />
            <Checkbox
              label="Found by search"
              checked={d.Searchable}
              onChange={(e) => set({ Searchable: e.currentTarget.checked })}
            />
            <Checkbox
              label="Archived (kept, no new answers)"
              checked={d.IsArchived}
              onChange={(e) => set({ IsArchived: e.currentTarget.checked })}
            />
            {d.CustomFieldDataTypeId === T.FileUpload ? (
              <Checkbox
                label="Uploads are public files"
                checked={d.IsPublic}
                onChange={(e) => set({ IsPublic: e.currentTarget.checked })}
              />
            ) : null}
          </Group>
          {hasChoices(d.CustomFieldDataTypeId) ? (
            <ChoicesEditor
              type={d.CustomFieldDataTypeId}
              page={d.PageNumber}
              items={d.SelectListItems}
              onChange={(SelectListItems) => set({ SelectListItems })}
            />
          ) : null}
          {DefaultInput && declaration && d.CustomFieldDataTypeId !== T.DropdownWithFillIn ? (
            <DefaultInput
              name="DefaultValue"
              field={{
                ...declaration,
                label: 'Default value',
                tooltip: 'What a new record starts with.',
                readOnly: false,
                // Only saved choices can be a default.
                ...(declaration.options ? { options: declaration.options } : {}),
              }}
              value={d.DefaultValue ?? null}
              onChange={(v) => set({ DefaultValue: v })}
              error={err('DefaultValue')}
              context={context}
            />
          ) : null}
          {save.error && !err('DefaultValue') && !err('Name') ? <ErrorBlock error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {creating ? 'Add field' : 'Save'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function TypeChangeDialog({
  field,
  onClose,
  onApplied,
}: {
  field: CustomField;
  onClose: () => void;
  onApplied: () => void;
}) {
  const [type, setType] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: (body: { CustomFieldDataTypeId: number; Confirm: boolean }) =>
      api.post<TypeChangeOutcome>(`/api/custom-fields/${field.CustomFieldId}/type-change`, body),
    onSuccess: (outcome) => {
      if (outcome.Applied) {
        notifySaved(
          `Type changed: ${outcome.Converted} converted, ${outcome.Lost} removed, ${outcome.Kept} kept.`,
        );
        onApplied();
      }
    },
  });
  const dry = run.data && !run.data.Applied && String(run.data.ToTypeId) === type ? run.data : null;
  return (
    <Modal opened onClose={onClose} title={`Change the type of ${field.Name}`} size="lg">
      <Stack gap="sm">
        <Text size="sm">
          Now: <b>{DATA_TYPE_LABELS[field.CustomFieldDataTypeId]}</b>, {field.ValueCount ?? 0} stored
          value(s).
        </Text>
        <Select
          label="New type"
          data={TYPE_OPTIONS.filter((o) => Number(o.value) !== field.CustomFieldDataTypeId)}
          value={type}
          onChange={(v) => {
            setType(v);
            run.reset();
            if (v) run.mutate({ CustomFieldDataTypeId: Number(v), Confirm: false });
          }}
        />
        {run.isPending && !run.data ? <LoadingBlock label="Checking the stored values" /> : null}
        {run.error ? <ErrorBlock error={run.error} /> : null}
        {dry ? (
          <Stack gap="xs" aria-label="Dry run">
            <Alert color={dry.Lost > 0 ? 'orange' : 'blue'} title="What would happen">
              Of {dry.Total} stored value(s): {dry.Kept} kept as they are, {dry.Converted} converted,{' '}
              {dry.Lost} removed because the new type cannot hold them. Nothing changes until you apply.
            </Alert>
            {dry.Examples.length > 0 ? (
              <Table withTableBorder aria-label="Values that change">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Record</Table.Th>
                    <Table.Th>Now</Table.Th>
                    <Table.Th>After</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {dry.Examples.map((e) => (
                    <Table.Tr key={e.RecordId}>
                      <Table.Td>{e.RecordName}</Table.Td>
                      <Table.Td>{e.Before}</Table.Td>
                      <Table.Td>
                        {e.After ?? (
                          <Text c="red" size="sm">
                            removed
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : null}
            {hasChoices(dry.ToTypeId) ? (
              <Text size="sm">
                Choices after the change:{' '}
                {dry.SelectListItems.filter((c) => !c.isDeleted)
                  .map((c) => (c.IsHidden ? `${c.Name} (hidden)` : c.Name))
                  .join(', ') || 'none'}
              </Text>
            ) : null}
          </Stack>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color={dry && dry.Lost > 0 ? 'orange' : 'blue'}
            disabled={!dry}
            loading={run.isPending && Boolean(dry)}
            onClick={() => type && run.mutate({ CustomFieldDataTypeId: Number(type), Confirm: true })}
          >
            {dry && dry.Lost > 0 ? `Apply and remove ${dry.Lost} value(s)` : 'Apply'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
