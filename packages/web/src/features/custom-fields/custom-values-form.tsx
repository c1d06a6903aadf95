/**
 * A record's custom fields as a paged form: one page at a time, the built-in field registry's control for each
 * field (the same as built-in fields), branching to the page a choice names, Back to the page before. The server
 * checks every value and the required ones on the pages the answers go through; its messages show beside the
 * fields, and the form opens the page of the first one.
 */
import {
  type CustomField,
  customFieldDeclaration,
  customFieldKey,
  fieldsOfPage,
  formPages,
  nextPage,
  type RecordCustomValues,
  CUSTOM_FIELD_DATA_TYPES as T,
  type UploadedFile,
} from '@guildhall/shared';
import { Alert, Button, Group, Paper, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { Suspense, useMemo, useState } from 'react';
import { isApiError } from '../../platform/api-client.ts';
import { FIELD_REGISTRY } from '../../platform/fields/field-registry.ts';
import type { FieldContext } from '../../platform/fields/field-types.ts';
import { UploadField } from '../files/index.ts';

type Values = Record<string, unknown>;
const OTHER = '__other__';

interface Props {
  data: RecordCustomValues;
  context: FieldContext;
  /** Where a file field's upload goes. */
  uploadUrl: string;
  saving: boolean;
  error: unknown;
  onSave: (values: Values) => void;
  /** Shown when there is no field at all. */
  emptyText: string;
}

/** A dropdown with fill-in: the registry's select with an "Other" entry, and a text box for the fill-in. */
function FillInInput({
  field,
  value,
  onChange,
  error,
  context,
  readOnly,
}: {
  field: CustomField;
  value: unknown;
  onChange: (v: unknown) => void;
  error: string | undefined;
  context: FieldContext;
  readOnly: boolean;
}) {
  const other = (value as { Other?: string } | null)?.Other;
  const [typing, setTyping] = useState(other !== undefined);
  const declaration = customFieldDeclaration(field);
  if (!declaration) return null;
  const options = [...(declaration.options ?? []), { Id: OTHER, Name: 'Other (fill in)' }];
  const Input = FIELD_REGISTRY.select.Input;
  return (
    <Stack gap={4}>
      <Input
        name={customFieldKey(field.CustomFieldId)}
        field={{ ...declaration, options, readOnly }}
        value={typing ? OTHER : value}
        onChange={(v) => {
          if (v === OTHER) {
            setTyping(true);
            onChange({ Other: other ?? '' });
          } else {
            setTyping(false);
            onChange(v);
          }
        }}
        error={typing ? undefined : error}
        context={context}
      />
      {typing ? (
        <TextInput
          label={`${field.Name}: other`}
          aria-label={`${field.Name}: other`}
          value={other ?? ''}
          readOnly={readOnly}
          error={error}
          onChange={(e) => onChange({ Other: e.currentTarget.value })}
        />
      ) : null}
    </Stack>
  );
}

function FieldControl({
  field,
  value,
  onChange,
  error,
  context,
  editable,
  uploadUrl,
}: {
  field: CustomField;
  value: unknown;
  onChange: (v: unknown) => void;
  error: string | undefined;
  context: FieldContext;
  editable: boolean;
  uploadUrl: string;
}) {
  if (field.CustomFieldDataTypeId === T.SectionHeading)
    return (
      <Stack gap={0} pt="sm">
        <Title order={4}>{field.Name}</Title>
        {field.HelpText ? (
          <Text size="sm" c="dimmed">
            {field.HelpText}
          </Text>
        ) : null}
      </Stack>
    );
  if (field.CustomFieldDataTypeId === T.FileUpload)
    return (
      <Stack gap={2}>
        <Suspense fallback={<Text size="sm">{field.Name}</Text>}>
          <UploadField
            label={field.Name}
            uploadUrl={uploadUrl}
            value={(value as UploadedFile | null) ?? null}
            onChange={onChange}
            isPublic={field.IsPublic}
            readOnly={!editable}
            IsArchived={field.IsArchived}
          />
        </Suspense>
        {error ? (
          <Text size="xs" c="red">
            {error}
          </Text>
        ) : null}
      </Stack>
    );
  if (field.CustomFieldDataTypeId === T.DropdownWithFillIn)
    return (
      <FillInInput
        field={field}
        value={value}
        onChange={onChange}
        error={error}
        context={context}
        readOnly={!editable}
      />
    );
  const declaration = customFieldDeclaration(field);
  if (!declaration) return null;
  const Input = FIELD_REGISTRY[declaration.type].Input;
  return (
    <Input
      name={customFieldKey(field.CustomFieldId)}
      field={{ ...declaration, readOnly: !editable || declaration.readOnly === true }}
      value={value ?? (declaration.type === 'multiSelect' ? [] : null)}
      onChange={onChange}
      error={error}
      context={context}
    />
  );
}

export function CustomValuesForm({ data, context, uploadUrl, saving, error, onSave, emptyText }: Props) {
  const fields = data.Fields;
  const pages = useMemo(() => formPages(fields), [fields]);
  const [values, setValues] = useState<Values>(() => ({ ...data.Values }));
  const [history, setHistory] = useState<number[]>([]);
  const [page, setPage] = useState<number>(pages[0] ?? 1);
  const editable = new Set(data.Editable);
  const anyEditable = editable.size > 0;
  const errors = isApiError(error) ? error.errors : {};
  const numeric = useMemo(
    () => Object.fromEntries(Object.entries(values).map(([k, v]) => [Number(k), v])),
    [values],
  );

  if (fields.length === 0) return <Text c="dimmed">{emptyText}</Text>;

  const next = nextPage(fields, numeric, page);
  const onPage = fieldsOfPage(fields, page);
  const errorOf = (f: CustomField) => errors[customFieldKey(f.CustomFieldId)]?.join(', ');
  const goTo = (target: number) => {
    setHistory((h) => [...h, page]);
    setPage(target);
  };
  const back = () => {
    const previous = history.at(-1);
    if (previous === undefined) return;
    setHistory((h) => h.slice(0, -1));
    setPage(previous);
  };
  const save = () => {
    const changed: Values = {};
    for (const f of fields) {
      const key = String(f.CustomFieldId);
      if (!editable.has(f.CustomFieldId)) continue;
      changed[key] = values[key] ?? null;
    }
    onSave(changed);
  };
  // A refused save opens the first page with a message.
  const firstErrorPage = fields.find((f) => errorOf(f))?.PageNumber ?? null;

  return (
    <Stack gap="md">
      {pages.length > 1 ? (
        <Stepper
          active={pages.indexOf(page)}
          size="xs"
          allowNextStepsSelect={false}
          onStepClick={(i) => {
            const target = pages[i];
            if (target !== undefined && history.includes(target)) {
              setHistory((h) => h.slice(0, h.indexOf(target)));
              setPage(target);
            }
          }}
        >
          {pages.map((p) => {
            const skipped = p < page && !history.includes(p);
            return (
              <Stepper.Step
                key={p}
                label={`Page ${p}`}
                description={skipped ? 'Skipped' : undefined}
                color={skipped ? 'gray' : undefined}
              />
            );
          })}
        </Stepper>
      ) : null}
      {error && !isApiError(error) ? <Alert color="red">Saving failed. Try again.</Alert> : null}
      {isApiError(error) ? (
        <Alert color="red" title="Not saved">
          {error.message}
          {firstErrorPage !== null && firstErrorPage !== page ? (
            <>
              {' '}
              <Button variant="subtle" size="compact-sm" onClick={() => goTo(firstErrorPage)}>
                Open page {firstErrorPage}
              </Button>
            </>
          ) : null}
        </Alert>
      ) : null}
      <Paper withBorder p="md" component="section" aria-label={`Page ${page}`}>
        <Stack gap="sm">
          {onPage.map((f) => (
            <FieldControl
              key={f.CustomFieldId}
              field={f}
              value={values[String(f.CustomFieldId)]}
              onChange={(v) => setValues((all) => ({ ...all, [String(f.CustomFieldId)]: v }))}
              error={errorOf(f)}
              context={context}
              editable={editable.has(f.CustomFieldId)}
              uploadUrl={uploadUrl}
            />
          ))}
        </Stack>
      </Paper>
      <Group justify="space-between">
        <Button variant="default" onClick={back} disabled={history.length === 0}>
          Back
        </Button>
        <Group>
          {next !== null ? (
            <Button variant={anyEditable ? 'default' : 'filled'} onClick={() => goTo(next)}>
              Next: page {next}
            </Button>
          ) : null}
          {anyEditable ? (
            <Button onClick={save} loading={saving}>
              Save
            </Button>
          ) : null}
        </Group>
      </Group>
    </Stack>
  );
}

/**
 * Questions answered while making a record (an event's registration): every question in form order with its
 * field's control, the answers kept by the caller and sent with the form; the server's messages (keyed by field,
 * with `prefix` for one person of a group) show beside them.
 */
export function QuestionInputs({
  questions,
  values,
  onChange,
  error,
  context,
  prefix = '',
}: {
  questions: readonly CustomField[];
  values: Values;
  onChange: (values: Values) => void;
  error: unknown;
  context: FieldContext;
  prefix?: string;
}) {
  const errors = isApiError(error) ? error.errors : {};
  return (
    <Stack gap="sm">
      {questions.map((f) => (
        <FieldControl
          key={f.CustomFieldId}
          field={f}
          value={values[String(f.CustomFieldId)]}
          onChange={(v) => onChange({ ...values, [String(f.CustomFieldId)]: v })}
          error={errors[prefix + customFieldKey(f.CustomFieldId)]?.join(', ')}
          context={context}
          editable
          uploadUrl=""
        />
      ))}
    </Stack>
  );
}
