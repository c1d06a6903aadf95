/**
 * A saved report's parameters as a form (report-parameters.rules.ts): a date range for a date field (the 0-37
 * options, Custom with its own days), the field's own control for a choice, a lookup, yes/no or a number, a text
 * box for a text. The report screen runs the report with the values applied; a schedule and a pin keep them.
 */
import {
  type FieldDeclaration,
  parameterKind,
  type ReportParameterDefinition,
  type ResourceDeclaration,
} from '@guildhall/shared';
import { Group } from '@mantine/core';
import { FIELD_REGISTRY } from '../../fields/field-registry.ts';
import { useFieldContext } from '../field-context.ts';

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
