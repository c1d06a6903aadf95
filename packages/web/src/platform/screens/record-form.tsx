import type { FieldDeclaration, FormSectionDeclaration, Model, ResourceDeclaration } from '@guildhall/shared';
import { Paper, SimpleGrid, Title } from '@mantine/core';
import type { ComponentType } from 'react';
import { FIELD_REGISTRY } from '../fields/field-registry.ts';
import type { FieldContext, FieldInputProps } from '../fields/field-types.ts';

const WIDE = new Set(['textarea', 'richText', 'dateRange', 'decimalRange', 'multiSelect', 'flags']);

export interface RecordFormProps {
  resource: ResourceDeclaration;
  sections: readonly FormSectionDeclaration[];
  model: Model;
  original: Model | null;
  errors: Record<string, string | undefined>;
  highlightChanges: boolean;
  context: FieldContext;
  onField: (name: string, value: unknown) => void;
  onValidity?: (name: string, error: string | null) => void;
  /** Section headings as h2 (a screen) or h3 (inside a dialog). */
  headingOrder?: 2 | 3;
  /** A feature's control for a field instead of the field type's input, by field name (`EditSlots.fields`). */
  controls?: Partial<Record<string, ComponentType<FieldInputProps>>>;
}

export function isFieldChanged(original: Model | null, model: Model, name: string): boolean {
  if (!original) return false;
  return JSON.stringify(original[name] ?? null) !== JSON.stringify(model[name] ?? null);
}

/** One control per field from the registry, laid out by the resource's form sections. */
export function RecordForm(props: RecordFormProps) {
  const { resource, sections, model } = props;
  return (
    <>
      {sections.map((section) => (
        <Paper key={section.title} withBorder p="md" mb="md" component="section" aria-label={section.title}>
          <Title order={props.headingOrder ?? 2} size="h4" mb="sm">
            {section.title}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {section.fields.map((name) => {
              const field = resource.fields[name] as FieldDeclaration | undefined;
              if (!field) return null;
              const Input = props.controls?.[name] ?? FIELD_REGISTRY[field.type].Input;
              return (
                <div key={name} style={WIDE.has(field.type) ? { gridColumn: '1 / -1' } : undefined}>
                  <Input
                    name={name}
                    field={field}
                    value={model[name]}
                    onChange={(v) => props.onField(name, v)}
                    error={props.errors[name]}
                    changed={props.highlightChanges && isFieldChanged(props.original, model, name)}
                    onValidity={(e) => props.onValidity?.(name, e)}
                    context={props.context}
                  />
                </div>
              );
            })}
          </SimpleGrid>
        </Paper>
      ))}
    </>
  );
}

/**
 * Starting values a new record takes from its address (`…/new?OwnerUserId=3`): only declared, writable fields of a
 * scalar type, numbers as numbers. A parent page's "Add" uses it to fill the child's parent field.
 */
export function prefillFrom(r: ResourceDeclaration, params: URLSearchParams): Model {
  const model: Model = {};
  for (const [name, value] of params) {
    const field = r.fields[name];
    if (!field || field.readOnly || value === '') continue;
    if (field.type === 'number' || field.type === 'lookup') {
      const n = Number(value);
      if (Number.isFinite(n)) model[name] = n;
    } else if (field.type === 'text' || field.type === 'select' || field.type === 'email')
      model[name] = value;
  }
  return model;
}

/** A new record's starting values: empty, with booleans off and lists empty. */
export function emptyModel(r: ResourceDeclaration): Model {
  const model: Model = {};
  for (const [name, field] of Object.entries(r.fields)) {
    if (field.readOnly) continue;
    model[name] =
      field.type === 'boolean'
        ? false
        : field.type === 'multiSelect'
          ? []
          : field.type === 'flags'
            ? 0
            : null;
  }
  return model;
}
