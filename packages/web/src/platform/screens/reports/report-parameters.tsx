/**
 * A saved report's parameters as a form (report-parameters.rules.ts): a date range for a date field (the 0-37
 * options, Custom with its own days), the field's own control for a choice, a lookup, yes/no or a number, a text
 * box for a text. The report screen runs the report with the values applied; a schedule and a pin keep them.
 */
import {
  describeParameterValues,
  type FieldDeclaration,
  type LookupOption,
  parameterKind,
  type ReportParameterDefinition,
  type ResourceDeclaration,
  withReportExtraFields,
} from '@guildhall/shared';
import { Group, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api-client.ts';
import { FIELD_REGISTRY } from '../../fields/field-registry.ts';
import { useFieldContext } from '../field-context.ts';
import { resourceByName } from '../resources.ts';
import { fetchReportExtraFields } from './reports-api.ts';

/**
 * The list a report reads with the fields the association adds to it (custom fields): a report's columns, filters
 * and parameters may name them, so its parameter form, its "Run with …" line and its schedules show them too.
 */
export function useReportResource(name: string | null | undefined): ResourceDeclaration | null {
  const declared = name ? resourceByName(name) : null;
  const extra = useQuery({
    queryKey: ['reports', 'extra-fields', name],
    queryFn: () => fetchReportExtraFields(name ?? ''),
    enabled: Boolean(declared),
    staleTime: 60_000,
  });
  return useMemo(
    () => (declared ? withReportExtraFields(declared, extra.data) : null),
    [declared, extra.data],
  );
}

/**
 * The names of the records the lookup parameters hold (by parameter name), read through each lookup as a lookup
 * field's display reads it (the same cache): "Type: Student", not "Type: 12". Null until known.
 */
export function useParameterNames(
  parameters: readonly ReportParameterDefinition[],
  resource: ResourceDeclaration | null | undefined,
  values: Record<string, unknown>,
): Record<string, string | null> {
  const context = useFieldContext();
  const wanted = parameters.flatMap((p) => {
    const field = resource?.fields[p.field];
    const value = values[p.name];
    const url = field?.type === 'lookup' && field.lookup ? context.lookupUrl(field.lookup.source) : null;
    return url && value !== undefined && value !== null && value !== ''
      ? [{ p, url, id: String(value) }]
      : [];
  });
  const answers = useQueries({
    queries: wanted.map(({ url, id }) => ({
      queryKey: ['lookup-name', url, id],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api.get<LookupOption[]>(`${url}?id=${encodeURIComponent(id)}`, { signal }),
      staleTime: 60_000,
    })),
  });
  return Object.fromEntries(wanted.map(({ p }, i) => [p.name, answers[i]?.data?.[0]?.Name || null]));
}

/** The control a parameter shows: its own kind of field, labelled as the parameter. */
function parameterField(p: ReportParameterDefinition, field: FieldDeclaration): FieldDeclaration | null {
  const kind = parameterKind(field);
  if (!kind) return null;
  const common = { label: p.label, required: p.required, readOnly: false, tooltip: undefined };
  if (kind === 'dateRange') return { type: 'dateRange', ...common };
  if (kind === 'text') return { type: 'text', ...common, maxLength: 500 };
  return { ...field, ...common };
}

export function ReportParameterFields({
  parameters,
  resource,
  values,
  onChange,
  errors,
}: {
  parameters: readonly ReportParameterDefinition[];
  resource: ResourceDeclaration | null | undefined;
  values: Record<string, unknown>;
  onChange: (values: Record<string, unknown>) => void;
  errors?: Record<string, string[]> | undefined;
}) {
  const context = useFieldContext();
  return (
    <Group align="flex-start" gap="sm" role="group" aria-label="Report parameters">
      {parameters.map((p) => {
        const source = resource?.fields[p.field];
        const field = source ? parameterField(p, source) : null;
        if (!field) return null;
        const Input = FIELD_REGISTRY[field.type].Input;
        return (
          <div key={p.name} style={{ minWidth: 220 }} data-parameter={p.name}>
            <Input
              name={`parameter-${p.name}`}
              field={field}
              value={values[p.name] ?? null}
              onChange={(v) => onChange({ ...values, [p.name]: v })}
              error={errors?.[p.name]?.[0]}
              context={context}
            />
          </div>
        );
      })}
    </Group>
  );
}

/** Whether every required parameter has a value (the report may run). */
export function parametersReady(
  parameters: readonly ReportParameterDefinition[],
  values: Record<string, unknown>,
): boolean {
  return parameters.every((p) => {
    if (!p.required) return true;
    const v = values[p.name];
    if (v === undefined || v === null || v === '') return false;
    if (typeof v === 'object' && !Array.isArray(v)) {
      const r = v as { Range?: number | null; StartDate?: string | null; EndDate?: string | null };
      if (r.Range === null || r.Range === undefined) return false;
      if (r.Range === 0) return Boolean(r.StartDate || r.EndDate);
    }
    return true;
  });
}

/** The values a schedule keeps as a line ("With Type: Student · Joined: Last Month"), nothing when none is set. */
export function KeptParameterValues({
  parameters,
  resource,
  values,
}: {
  parameters: readonly ReportParameterDefinition[];
  resource: ResourceDeclaration | null | undefined;
  values: Record<string, unknown>;
}) {
  const names = useParameterNames(parameters, resource, values);
  const text = resource ? describeParameterValues(parameters, resource.fields, values, names) : '';
  return text ? (
    <Text size="sm" c="dimmed">
      With {text}
    </Text>
  ) : null;
}
