import {
  applyNumberLimits,
  bitmaskToKeys,
  countryOptions,
  DATE_RANGE_OPTIONS,
  DATE_TYPES,
  type DateRangeValue,
  type DecimalRange,
  formatDateInput,
  formatPhone,
  fromDecimalRange,
  isCalendarDay,
  isDateWithinLimits,
  isValidDecimalRange,
  keepAllowedValue,
  keysToBitmask,
  MERGE_FLAGS,
  normalizeWebsite,
  parseBooleanInput,
  parseCurrencyInput,
  parseDateInput,
  parsePhone,
  parseWebsite,
  resolveDateRange,
  showMultiSelectSearch,
  TEMPLATE_TYPES,
  type TimezoneOption,
  toDecimalRange,
  toStoredDateValue,
  truncateToMaxLength,
  zonedDateTimeInput,
} from '@guildhall/shared';
import {
  Checkbox,
  Group,
  Input,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { api } from '../api-client.ts';
import { useFieldPicker } from '../modules/modules-context.tsx';
import { moneySymbol } from '../money.ts';
import { ImageDisplay } from './field-display.tsx';
import type { FieldInputProps } from './field-types.ts';
import { useLookupName } from './lookup-name.ts';

interface EmailValidateResponse {
  Data: { Valid: boolean; ErrorMessages: string[] };
}

const CHANGED: CSSProperties = {
  borderColor: 'var(--mantine-color-orange-6)',
  boxShadow: '0 0 0 1px var(--mantine-color-orange-6)',
};

/** Label, tooltip, required mark, error and the orange "changed" highlight every control shares. */
function common(props: FieldInputProps) {
  const { field, error, changed, name } = props;
  const label: ReactNode = field.tooltip ? (
    <Group gap={4} component="span" wrap="nowrap" style={{ display: 'inline-flex' }}>
      {field.label}
      <Tooltip
        label={field.tooltip}
        withArrow
        multiline
        maw={280}
        events={{ hover: true, focus: true, touch: true }}
      >
        {/* A button, so the tooltip shows to keyboard users on focus as it does on hover. */}
        <button
          type="button"
          aria-label={`About ${field.label}`}
          style={{ display: 'inline-flex', border: 0, padding: 0, background: 'none', cursor: 'help' }}
        >
          <IconInfoCircle size={14} aria-hidden style={{ color: 'var(--mantine-color-dimmed)' }} />
        </button>
      </Tooltip>
    </Group>
  ) : (
    field.label
  );
  return {
    label,
    name,
    error: error || undefined,
    required: field.required === true,
    disabled: field.readOnly === true,
    'data-changed': changed ? 'true' : undefined,
    'aria-description': field.tooltip,
    styles: changed ? { input: CHANGED } : undefined,
  };
}

const asText = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export function TextFieldInput(props: FieldInputProps) {
  const max = props.field.maxLength;
  return (
    <TextInput
      {...common(props)}
      value={asText(props.value)}
      maxLength={max}
      onChange={(e) => props.onChange(truncateToMaxLength(e.currentTarget.value, max))}
    />
  );
}

export function TextareaFieldInput(props: FieldInputProps) {
  const max = props.field.maxLength;
  return (
    <Textarea
      {...common(props)}
      value={asText(props.value)}
      autosize
      minRows={3}
      maxRows={10}
      onChange={(e) => props.onChange(truncateToMaxLength(e.currentTarget.value, max))}
    />
  );
}

/** Rich text: a plain text editor until the rich text editor arrives; the value stays text. */
const RichTextEditor = lazy(() => import('../editor/rich-text-editor.tsx'));

/**
 * Rich text in the product's editor (Tiptap through @mantine/tiptap, loaded with the first form that needs it): merge
 * fields of a message to a contact, the user's signatures, images, emoticons, and the field's `editorMaxLength`.
 */
export function RichTextFieldInput(props: FieldInputProps) {
  const { field } = props;
  const label = (
    <Group gap={4}>
      <Text size="sm" fw={500} component="span">
        {field.label}
      </Text>
      {field.required ? (
        <Text c="red" component="span" size="sm">
          *
        </Text>
      ) : null}
    </Group>
  );
  return (
    <div style={props.changed ? { ...CHANGED, borderRadius: 4 } : undefined} data-field={props.name}>
      {label}
      <Suspense
        fallback={
          <Textarea aria-label={field.label} value={asText(props.value)} readOnly minRows={6} autosize />
        }
      >
        <RichTextEditor
          label={field.label}
          value={asText(props.value)}
          onChange={(html) => props.onChange(html)}
          readOnly={field.readOnly === true}
          maxLength={field.editorMaxLength}
          mergeContext={RICH_TEXT_MERGE_CONTEXT}
          signatures
        />
      </Suspense>
      {props.error ? (
        <Text c="red" size="xs" mt={4}>
          {props.error}
        </Text>
      ) : null}
    </div>
  );
}

const RICH_TEXT_MERGE_CONTEXT = {
  flags: MERGE_FLAGS.RichText,
  templateType: TEMPLATE_TYPES.Email,
  entity: 'contact',
};

/** Below the minimum is invalid; above the maximum clamps to the maximum (spec 000 section 5). */
export function NumberFieldInput(props: FieldInputProps) {
  const { field } = props;
  const [local, setLocal] = useState<string | null>(null);
  const value = typeof props.value === 'number' ? props.value : '';
  const min = field.min ?? null;
  const below = typeof props.value === 'number' && min !== null && props.value < min;
  return (
    <NumberInput
      {...common(props)}
      error={props.error || (below ? `${field.label} is at least ${min}.` : undefined)}
      value={local ?? value}
      clampBehavior="none"
      allowDecimal
      onChange={(v) => {
        setLocal(null);
        if (v === '' || v === null) return props.onChange(null);
        const n = typeof v === 'number' ? v : Number(v);
        if (!Number.isFinite(n)) return;
        props.onChange(applyNumberLimits(n, { min: null, max: field.max ?? null }).value);
      }}
    />
  );
}

/** Money as typed: commas are stripped; the model holds cents. */
export function CurrencyFieldInput(props: FieldInputProps) {
  const cents = typeof props.value === 'number' ? props.value : null;
  const shown = cents === null ? '' : (cents / 100).toFixed(2);
  const [draft, setDraft] = useState<string | null>(null);
  const [bad, setBad] = useState(false);
  return (
    <TextInput
      {...common(props)}
      error={props.error || (bad ? `${props.field.label} must be an amount of money.` : undefined)}
      inputMode="decimal"
      leftSection={<span aria-hidden>{moneySymbol()}</span>}
      value={draft ?? shown}
      onChange={(e) => {
        const text = e.currentTarget.value.replace(/,/g, '');
        setDraft(text);
        if (text.trim() === '') {
          setBad(false);
          return props.onChange(null);
        }
        const parsed = parseCurrencyInput(text);
        setBad(parsed === null);
        if (parsed !== null) {
          const limited = applyNumberLimits(parsed, { min: null, max: props.field.max ?? null });
          props.onChange(limited.value);
        }
      }}
      onBlur={() => {
        if (!bad) setDraft(null);
      }}
    />
  );
}

export function BooleanFieldInput(props: FieldInputProps) {
  const c = common(props);
  const checked =
    typeof props.value === 'boolean'
      ? props.value
      : parseBooleanInput(props.value as string | number | null | undefined) === true;
  return (
    <Checkbox
      label={c.label}
      name={c.name}
      disabled={c.disabled}
      error={c.error}
      data-changed={c['data-changed']}
      checked={checked}
      mt="xs"
      color={props.changed ? 'orange' : undefined}
      onChange={(e) => props.onChange(e.currentTarget.checked)}
    />
  );
}

/** A day typed as month/day/year with slashes, dots or dashes; the model holds `yyyy-MM-dd`. */
export function DateFieldInput(
  props: FieldInputProps & { lowerThan?: string | null; higherThan?: string | null; label?: string },
) {
  const day =
    typeof props.value === 'string' && isCalendarDay(props.value.slice(0, 10))
      ? props.value.slice(0, 10)
      : '';
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const outOfLimits =
    day !== '' &&
    !isDateWithinLimits(day, { lowerThan: props.lowerThan ?? null, higherThan: props.higherThan ?? null });
  const c = common(props);
  return (
    <TextInput
      {...c}
      label={props.label ?? c.label}
      placeholder="mm/dd/yyyy"
      value={draft ?? (day ? formatDateInput(day) : '')}
      error={
        props.error ||
        error ||
        (outOfLimits
          ? props.lowerThan
            ? 'The start is after the end.'
            : 'The end is before the start.'
          : undefined)
      }
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={() => {
        if (draft === null) return;
        const parsed = parseDateInput(draft, { timeZone: props.context.timeZone });
        if (parsed.ok) {
          setError(null);
          setDraft(null);
          props.onChange(parsed.value);
        } else setError(parsed.error);
      }}
    />
  );
}

function toZonedInput(iso: unknown, timeZone: string): string {
  return typeof iso === 'string' && iso !== '' ? zonedDateTimeInput(iso, timeZone) : '';
}

/**
 * A date and time in the timezone every time is shown in (the association's, named under the field), stored as an
 * instant: the same zone the lists, records and audit log show it in, whatever the browser's.
 */
export function DateTimeFieldInput(props: FieldInputProps) {
  const zone = props.context.timeZone;
  return (
    <TextInput
      {...common(props)}
      type="datetime-local"
      description={`Time in ${zone}.`}
      value={toZonedInput(props.value, zone)}
      onChange={(e) => {
        const [day, time] = e.currentTarget.value.split('T');
        props.onChange(
          day && time ? toStoredDateValue(day, time.slice(0, 5), DATE_TYPES.DateAndTime, zone) : null,
        );
      }}
    />
  );
}

export function TimeFieldInput(props: FieldInputProps) {
  return (
    <TextInput
      {...common(props)}
      type="time"
      value={asText(props.value).slice(0, 5)}
      onChange={(e) => props.onChange(e.currentTarget.value || null)}
    />
  );
}

/**
 * A North American number shown as (xxx) xxx-xxxx while typing, another country's typed with + and its country
 * code and shown in its own format; an extension may follow (x89). What is typed is kept as typed, letters
 * included: the shared rule marks it with a message instead of silently dropping characters (decision 0090).
 */
export function PhoneFieldInput(props: FieldInputProps) {
  const [touched, setTouched] = useState(false);
  const text = asText(props.value);
  const check = parsePhone(text);
  const own = touched && !check.ok ? check.error : undefined;
  return (
    <TextInput
      {...common(props)}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      placeholder="(555) 555-5555 or +44 20 7946 0958"
      value={formatPhone(text)}
      error={props.error || own}
      onChange={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
      onBlur={() => setTouched(true)}
    />
  );
}

/** A country chosen by name (or typed code), stored as its two-letter code. */
export function CountryFieldInput(props: FieldInputProps) {
  const value = typeof props.value === 'string' && props.value !== '' ? props.value : null;
  const data = countryOptions().map((o) => ({ value: o.Id, label: `${o.Name} (${o.Id})` }));
  return (
    <Select
      {...common(props)}
      data={data}
      searchable
      clearable
      limit={50}
      value={value}
      nothingFoundMessage="No country by that name or code"
      onChange={(v) => props.onChange(v)}
    />
  );
}

/** Gets the tenant's prefix (http:// unless configured) when no scheme is typed; what is no web address is marked. */
export function WebsiteFieldInput(props: FieldInputProps) {
  const [touched, setTouched] = useState(false);
  const check = parseWebsite(asText(props.value), props.context.websitePrefix);
  return (
    <TextInput
      {...common(props)}
      type="url"
      inputMode="url"
      value={asText(props.value)}
      error={props.error || (touched && !check.ok ? check.error : undefined)}
      onChange={(e) => props.onChange(truncateToMaxLength(e.currentTarget.value, props.field.maxLength))}
      onBlur={(e) => {
        const v = e.currentTarget.value;
        setTouched(true);
        if (v.trim() && parseWebsite(v, props.context.websitePrefix).ok)
          props.onChange(normalizeWebsite(v, props.context.websitePrefix));
      }}
    />
  );
}

/** Validated by the server when the field is left; its messages are joined by commas. */
export function EmailFieldInput(props: FieldInputProps) {
  const [serverError, setServerError] = useState<string | null>(null);
  const { onValidity } = props;
  return (
    <TextInput
      {...common(props)}
      type="email"
      autoComplete="email"
      value={asText(props.value)}
      error={props.error || serverError || undefined}
      onChange={(e) => {
        props.onChange(truncateToMaxLength(e.currentTarget.value, props.field.maxLength));
        if (serverError) {
          setServerError(null);
          onValidity?.(null);
        }
      }}
      onBlur={async (e) => {
        const emailAddress = e.currentTarget.value.trim();
        if (!emailAddress) {
          setServerError(null);
          onValidity?.(null);
          return;
        }
        try {
          const answer = await api.post<EmailValidateResponse>('/api/utils/email/validate', { emailAddress });
          const message = answer.Data.Valid ? null : answer.Data.ErrorMessages.join(', ');
          setServerError(message);
          onValidity?.(message);
        } catch {
          // The save validates it again; a failed check must not block typing.
        }
      }}
    />
  );
}

const optionData = (props: FieldInputProps) =>
  (props.field.options ?? []).map((o) => ({ value: String(o.Id), label: o.Name }));

function fromOptionValue(props: FieldInputProps, v: string | null): string | number | null {
  if (v === null) return null;
  return props.field.options?.find((o) => String(o.Id) === v)?.Id ?? v;
}

export function SelectFieldInput(props: FieldInputProps) {
  return (
    <Select
      {...common(props)}
      data={optionData(props)}
      value={props.value === null || props.value === undefined ? null : String(props.value)}
      clearable={!props.field.required}
      allowDeselect={!props.field.required}
      onChange={(v) => props.onChange(fromOptionValue(props, v))}
    />
  );
}

/** A value outside the allowed list is set to empty (spec 000 section 5). */
export function SelectValidFieldInput(props: FieldInputProps) {
  const allowed = (props.field.options ?? []).map((o) => o.Id);
  const raw = props.value as string | number | null | undefined;
  const kept = raw === null || raw === undefined ? '' : keepAllowedValue(raw, allowed);
  const { onChange } = props;
  useEffect(() => {
    if (raw !== null && raw !== undefined && raw !== '' && kept === '') onChange(null);
  }, [raw, kept, onChange]);
  return <SelectFieldInput {...props} value={kept === '' ? null : kept} />;
}

/** A list of keys; the search box shows above 5 items. */
export function MultiSelectFieldInput(props: FieldInputProps) {
  const data = optionData(props);
  const value = Array.isArray(props.value) ? props.value.map(String) : [];
  return (
    <MultiSelect
      {...common(props)}
      data={data}
      value={value}
      searchable={showMultiSelectSearch(data.length)}
      clearable
      onChange={(v) => props.onChange(v.map((x) => fromOptionValue(props, x)))}
    />
  );
}

/** A bitmask of flags (each option's Id is its bit); the search box shows above 5 items. */
export function FlagsFieldInput(props: FieldInputProps) {
  const data = optionData(props);
  const mask = typeof props.value === 'number' ? props.value : 0;
  return (
    <MultiSelect
      {...common(props)}
      data={data}
      value={bitmaskToKeys(mask).map(String)}
      searchable={showMultiSelectSearch(data.length)}
      clearable
      onChange={(v) => props.onChange(keysToBitmask(v.map(Number)))}
    />
  );
}

export function DecimalRangeFieldInput(props: FieldInputProps) {
  const range = (props.value ?? null) as Partial<DecimalRange> | null;
  // Open sides (stored as -2147483647 and 2147483647) show as empty boxes: "no limit".
  const open =
    range && typeof range.StartValue === 'number' && typeof range.EndValue === 'number'
      ? fromDecimalRange({ StartValue: range.StartValue, EndValue: range.EndValue })
      : { start: null, end: null };
  const start: number | '' = open.start ?? '';
  const end: number | '' = open.end ?? '';
  const invalid =
    typeof start === 'number' &&
    typeof end === 'number' &&
    !isValidDecimalRange({ StartValue: start, EndValue: end });
  const set = (part: 'start' | 'end', v: string | number) => {
    const n = v === '' || Number.isNaN(Number(v)) ? null : Number(v);
    const next = { start: open.start, end: open.end, [part]: n };
    props.onChange(next.start === null && next.end === null ? null : toDecimalRange(next));
  };
  const c = common(props);
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0 }} data-changed={c['data-changed']}>
      <Text component="legend" size="sm" fw={500} mb={4}>
        {props.field.label}
      </Text>
      <SimpleGrid cols={2} spacing="xs">
        <NumberInput
          label="From"
          aria-label={`${props.field.label} from`}
          value={start}
          placeholder="No limit"
          styles={c.styles}
          onChange={(v) => set('start', v)}
        />
        <NumberInput
          label="To"
          aria-label={`${props.field.label} to`}
          value={end}
          placeholder="No limit"
          styles={c.styles}
          error={invalid ? 'The start is after the end.' : props.error || undefined}
          onChange={(v) => set('end', v)}
        />
      </SimpleGrid>
    </fieldset>
  );
}

const DATE_RANGE_DATA = DATE_RANGE_OPTIONS.map((o) => ({ value: String(o.Id), label: o.Name }));

/** One of the 38 range options (0 is Custom, with its own start and end days). */
export function DateRangeFieldInput(props: FieldInputProps) {
  const value = (props.value ?? null) as DateRangeValue | null;
  const range = value?.Range ?? null;
  const resolved =
    range !== null && range !== 0
      ? resolveDateRange(range, new Date(), { timeZone: props.context.timeZone })
      : null;
  const c = common(props);
  const update = (patch: Partial<DateRangeValue>) =>
    props.onChange({ Range: 0, StartDate: null, EndDate: null, ...value, ...patch });
  return (
    <fieldset
      style={{ border: 0, padding: 0, margin: 0 }}
      data-changed={c['data-changed']}
      aria-label={props.field.label}
    >
      <Select
        {...c}
        data={DATE_RANGE_DATA}
        searchable
        value={range === null ? null : String(range)}
        description={
          resolved
            ? `${formatDateInput(resolved.StartDate)} – ${formatDateInput(resolved.EndDate)}`
            : undefined
        }
        onChange={(v) =>
          v === null
            ? props.onChange(null)
            : update({ Range: Number(v), ...(Number(v) !== 0 ? { StartDate: null, EndDate: null } : {}) })
        }
      />
      {range === 0 ? (
        <SimpleGrid cols={2} spacing="xs" mt="xs">
          <DateFieldInput
            {...props}
            field={{ ...props.field, label: `${props.field.label} start`, tooltip: undefined }}
            label={`${props.field.label} start`}
            value={value?.StartDate ?? null}
            lowerThan={value?.EndDate ?? null}
            onChange={(v) => update({ StartDate: (v as string | null) ?? null })}
          />
          <DateFieldInput
            {...props}
            field={{ ...props.field, label: `${props.field.label} end`, tooltip: undefined }}
            label={`${props.field.label} end`}
            value={value?.EndDate ?? null}
            higherThan={value?.StartDate ?? null}
            onChange={(v) => update({ EndDate: (v as string | null) ?? null })}
          />
        </SimpleGrid>
      ) : null}
    </fieldset>
  );
}

/** The server's timezone options (GET /api/utils/timezones), shared by every timezone select of the page. */
export function useTimezoneOptions(current: string | null) {
  const { data = [] } = useQuery({
    queryKey: ['timezones'],
    queryFn: ({ signal }) => api.get<TimezoneOption[]>('/api/utils/timezones', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const options = data.map((o) => ({ value: o.OlsonName, label: o.DisplayName }));
  // A stored zone the list lacks (renamed in a newer timezone database) stays visible and chosen.
  if (current && !data.some((o) => o.OlsonName === current))
    options.unshift({ value: current, label: current });
  return options;
}

export function TimezoneFieldInput(props: FieldInputProps) {
  const value = typeof props.value === 'string' ? props.value : null;
  const data = useTimezoneOptions(value);
  return (
    <Select
      {...common(props)}
      data={data}
      searchable
      limit={50}
      value={typeof props.value === 'string' ? props.value : null}
      onChange={(v) => props.onChange(v)}
      onFocus={(e) => e.currentTarget.select()}
    />
  );
}

interface LookupOption {
  Id: unknown;
  Name: string;
}

/** Typeahead: GET the source's lookup with a search parameter as the user types. */
export function LookupFieldInput(props: FieldInputProps) {
  const source = props.field.lookup?.source ?? '';
  const url = props.context.lookupUrl(source);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const { data = [] } = useQuery({
    queryKey: ['lookup', source, debounced],
    queryFn: ({ signal }) =>
      api.get<LookupOption[]>(`${url}?search=${encodeURIComponent(debounced)}`, { signal }),
    enabled: url !== null,
    staleTime: 30_000,
  });
  const [known, setKnown] = useState<Record<string, string>>({});
  useEffect(() => {
    if (data.length === 0) return;
    setKnown((k) => ({ ...k, ...Object.fromEntries(data.map((o) => [String(o.Id), o.Name])) }));
  }, [data]);
  // The chosen record's own name, when the typeahead's first page does not hold it.
  const chosenName = useLookupName(
    props.value === null || props.value === undefined || known[String(props.value)] ? null : url,
    props.value,
  );
  const options = useMemo(() => {
    const list = data.map((o) => ({ value: String(o.Id), label: o.Name || String(o.Id) }));
    const current = props.value === null || props.value === undefined ? null : String(props.value);
    if (current && !list.some((o) => o.value === current))
      list.unshift({ value: current, label: known[current] ?? chosenName ?? `#${current}` });
    return list;
  }, [data, known, chosenName, props.value]);
  return (
    <Select
      {...common(props)}
      data={options}
      searchable
      clearable
      filter={({ options: o }) => o}
      onSearchChange={setSearch}
      nothingFoundMessage="Nothing found"
      value={props.value === null || props.value === undefined ? null : String(props.value)}
      onChange={(v) => props.onChange(v === null ? null : Number(v))}
    />
  );
}

/**
 * An image field (decision 0092): its label, error and changed highlight here, and inside the control of the module
 * that keeps images (the files feature's image dialog: upload, choose from the library, crop). Without that module
 * the image is only shown.
 */
export function ImageFieldInput(props: FieldInputProps) {
  const Picker = useFieldPicker('image');
  const c = common(props);
  return (
    <Input.Wrapper
      label={c.label}
      error={c.error}
      required={c.required}
      data-changed={c['data-changed']}
      style={
        props.changed ? { outline: '1px solid var(--mantine-color-orange-6)', outlineOffset: 4 } : undefined
      }
    >
      <Suspense fallback={<ImageDisplay field={props.field} value={props.value} context={props.context} />}>
        {Picker && props.field.readOnly !== true ? (
          <Picker {...props} />
        ) : (
          <ImageDisplay field={props.field} value={props.value} context={props.context} size={96} />
        )}
      </Suspense>
    </Input.Wrapper>
  );
}
