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
import { type ReactNode, Suspense, useMemo, useState } from 'react';
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

/**
 * The pages of a form and where the person filling it is: one page at a time, Next following the branch of the
 * answers (a choice's GoTo) or else the next page, Back to the page before. The record's form and the questions of
 * a registration page the same way.
 */
function usePaging(fields: readonly CustomField[], values: Values) {
  const pages = useMemo(() => formPages(fields), [fields]);
  const [history, setHistory] = useState<number[]>([]);
  const [page, setPage] = useState<number>(pages[0] ?? 1);
  const numeric = useMemo(
    () => Object.fromEntries(Object.entries(values).map(([k, v]) => [Number(k), v])),
    [values],
  );
  const goTo = (target: number) => {
    setHistory((h) => [...h, page]);
    setPage(target);
  };
  return {
    pages,
    page,
    history,
    next: nextPage(fields, numeric, page),
    onPage: fieldsOfPage(fields, page),
    goTo,
    back: () => {
      const previous = history.at(-1);
      if (previous === undefined) return;
      setHistory((h) => h.slice(0, -1));
      setPage(previous);
    },
    /** Back to a page already passed (a step of the stepper). */
    reopen: (target: number) => {
      if (!history.includes(target)) return;
      setHistory((h) => h.slice(0, h.indexOf(target)));
      setPage(target);
    },
  };
}

/** The steps of a paged form: the pages, those a branch skipped greyed, the ones passed open again on a click. */
function PageSteps({ paging }: { paging: ReturnType<typeof usePaging> }) {
  const { pages, page, history } = paging;
  if (pages.length <= 1) return null;
  return (
    <Stepper
      active={pages.indexOf(page)}
      size="xs"
      allowNextStepsSelect={false}
      onStepClick={(i) => {
        const target = pages[i];
        if (target !== undefined) paging.reopen(target);
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
  );
}

export function CustomValuesForm({ data, context, uploadUrl, saving, error, onSave, emptyText }: Props) {
  const fields = data.Fields;
  const [values, setValues] = useState<Values>(() => ({ ...data.Values }));
  const paging = usePaging(fields, values);
  const editable = new Set(data.Editable);
  const anyEditable = editable.size > 0;
  const errors = isApiError(error) ? error.errors : {};

  if (fields.length === 0) return <Text c="dimmed">{emptyText}</Text>;

  const { page, next, onPage, goTo, back, history } = paging;
  const errorOf = (f: CustomField) => errors[customFieldKey(f.CustomFieldId)]?.join(', ');
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
      <PageSteps paging={paging} />
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
 * Questions answered while making a record (an event's registration), with their fields' controls, the answers kept
 * by the caller and sent with the form; the server's messages (keyed by field, with `prefix` for one person of a
 * group) show beside them. Given `finish` (the form's submit button), the questions are paged as the record's form
 * pages them (PageNumber, a choice's GoTo) and `finish` shows on the last page the answers lead to; without it, every
 * question shows at once.
 */
export function QuestionInputs({
  questions,
  values,
  onChange,
  error,
  context,
  prefix = '',
  finish,
}: {
  questions: readonly CustomField[];
  values: Values;
  onChange: (values: Values) => void;
  error: unknown;
  context: FieldContext;
  prefix?: string;
  finish?: ReactNode;
}) {
  const paging = usePaging(questions, values);
  const errors = isApiError(error) ? error.errors : {};
  const errorOf = (f: CustomField) => errors[prefix + customFieldKey(f.CustomFieldId)]?.join(', ');
  const shown = finish === undefined ? questions : paging.onPage;
  const controls = (
    <Stack gap="sm">
      {shown.map((f) => (
        <FieldControl
          key={f.CustomFieldId}
          field={f}
          value={values[String(f.CustomFieldId)]}
          onChange={(v) => onChange({ ...values, [String(f.CustomFieldId)]: v })}
          error={errorOf(f)}
          context={context}
          editable
          uploadUrl=""
        />
      ))}
    </Stack>
  );
  if (finish === undefined) return controls;
  const { page, next, goTo, back, history, pages } = paging;
  // A refused registration names answers that may sit on another page: a way there.
  const firstError = questions.find((f) => errorOf(f));
  const firstErrorPage = firstError ? (firstError.PageNumber ?? 1) : null;
  return (
    <Stack gap="sm">
      <PageSteps paging={paging} />
      {firstErrorPage !== null && firstErrorPage !== page ? (
        <Alert color="red">
          An answer on page {firstErrorPage} needs a look.{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => goTo(firstErrorPage)}>
            Open page {firstErrorPage}
          </Button>
        </Alert>
      ) : null}
      {pages.length > 1 ? <section aria-label={`Questions, page ${page}`}>{controls}</section> : controls}
      <Group justify="space-between">
        {pages.length > 1 ? (
          <Button variant="default" onClick={back} disabled={history.length === 0}>
            Back
          </Button>
        ) : (
          <span />
        )}
        {next !== null ? <Button onClick={() => goTo(next)}>Next: page {next}</Button> : finish}
      </Group>
    </Stack>
  );
}
