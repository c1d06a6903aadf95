import {
  FILTER_OPERATORS,
  type FilterCriterion,
  type FilterOperator,
  type ListColumn,
  modalZIndex,
  parseBooleanInput,
  parseCurrencyInput,
  type ResourceDeclaration,
} from '@guildhall/shared';
import { ActionIcon, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';

const OPERATOR_LABELS: Record<FilterOperator, string> = {
  eq: 'is',
  ne: 'is not',
  contains: 'contains',
  startsWith: 'starts with',
  gt: 'is more than',
  ge: 'is at least',
  lt: 'is less than',
  le: 'is at most',
  between: 'is between',
  in: 'is one of',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
};

interface Row {
  id: number;
  PropertyName: string;
  Operator: FilterOperator;
  Value: string;
  Value2: string;
}

/**
 * A condition's value as the server takes it. A field the tenant added (a custom field) is not in the declaration:
 * its type comes with its list column, and the server reads its choices by name.
 */
function toValue(r: ResourceDeclaration, field: string, text: string, columnType?: string): unknown {
  const type = r.fields[field]?.type ?? columnType;
  if (type === 'number' || type === 'flags') return Number(text);
  if (type === 'currency') return parseCurrencyInput(text);
  if (type === 'boolean') return parseBooleanInput(text);
  const option = r.fields[field]?.options?.find((o) => o.Name.toLowerCase() === text.trim().toLowerCase());
  return option ? option.Id : text;
}

let nextRowId = 1;

function toText(value: unknown): string {
  return value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value);
}

/** The advanced filter (Id 9999): criteria over the filterable fields. */
export default function AdvancedFilterDialog(props: {
  resource: ResourceDeclaration;
  fields: string[];
  /** The list's columns: the titles and types of fields the declaration does not have (custom fields). */
  columns?: readonly ListColumn[];
  initial: FilterCriterion[];
  onClose: () => void;
  onApply: (criteria: FilterCriterion[]) => void;
}) {
  const { resource } = props;
  const column = (f: string) => props.columns?.find((c) => c.field === f);
  const fieldData = props.fields.map((f) => ({
    value: f,
    label: resource.fields[f]?.label ?? column(f)?.title ?? f,
  }));
  const criterionValue = (field: string, text: string) =>
    toValue(resource, field, text, column(field)?.fieldType);
  const blank = (): Row => ({
    id: nextRowId++,
    PropertyName: props.fields[0] ?? '',
    Operator: 'eq',
    Value: '',
    Value2: '',
  });
  const [rows, setRows] = useState<Row[]>(() =>
    props.initial.length
      ? props.initial.map((c) => ({
          id: nextRowId++,
          PropertyName: c.PropertyName,
          Operator: c.Operator,
          Value: toText(c.Value),
          Value2: toText(c.Value2),
        }))
      : [blank()],
  );
  const set = (i: number, p: Partial<Row>) =>
    setRows((rs) => rs.map((r, j) => (i === j ? { ...r, ...p } : r)));
  const apply = () =>
    props.onApply(
      rows
        .filter(
          (r) =>
            r.PropertyName && (r.Value.trim() || r.Operator === 'isEmpty' || r.Operator === 'isNotEmpty'),
        )
        .map((r) => ({
          PropertyName: r.PropertyName,
          Operator: r.Operator,
          ...(r.Operator === 'isEmpty' || r.Operator === 'isNotEmpty'
            ? {}
            : r.Operator === 'in'
              ? { Value: r.Value.split(',').map((v) => criterionValue(r.PropertyName, v.trim())) }
              : { Value: criterionValue(r.PropertyName, r.Value) }),
          ...(r.Operator === 'between' ? { Value2: criterionValue(r.PropertyName, r.Value2) } : {}),
        })),
    );
  const z = { zIndex: modalZIndex(1) };
  return (
    <Modal opened onClose={props.onClose} title="Advanced filter" centered size="xl" zIndex={modalZIndex(0)}>
      <Stack gap="sm">
        {rows.map((r, i) => (
          <Group key={r.id} gap="xs" align="flex-end" wrap="wrap">
            <Select
              label="Field"
              data={fieldData}
              value={r.PropertyName}
              allowDeselect={false}
              comboboxProps={z}
              w={170}
              onChange={(v) => set(i, { PropertyName: v ?? '' })}
            />
            <Select
              label="Condition"
              data={FILTER_OPERATORS.map((o) => ({ value: o, label: OPERATOR_LABELS[o] }))}
              value={r.Operator}
              allowDeselect={false}
              comboboxProps={z}
              w={150}
              onChange={(v) => set(i, { Operator: (v ?? 'eq') as FilterOperator })}
            />
            {r.Operator === 'isEmpty' || r.Operator === 'isNotEmpty' ? null : (
              <TextInput
                label="Value"
                value={r.Value}
                onChange={(e) => set(i, { Value: e.currentTarget.value })}
                w={170}
              />
            )}
            {r.Operator === 'between' ? (
              <TextInput
                label="And"
                value={r.Value2}
                onChange={(e) => set(i, { Value2: e.currentTarget.value })}
                w={140}
              />
            ) : null}
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove condition ${i + 1}`}
              onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No conditions: the list shows everything.
          </Text>
        ) : null}
        <Group justify="space-between">
          <Button
            variant="subtle"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setRows((rs) => [...rs, blank()])}
          >
            Add condition
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button onClick={apply}>Apply</Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
