import {
  bitmaskToKeys,
  countryName,
  DATE_RANGE_OPTIONS,
  DATE_TYPES,
  type DateRangeValue,
  type DecimalRange,
  describeDecimalRange,
  type FieldType,
  fileImageUrl,
  formatDateInput,
  formatDateValue,
  formatPhone,
  isCalendarDay,
} from '@guildhall/shared';
import { Badge, Text } from '@mantine/core';
import type { ComponentType } from 'react';
import { formatMoney } from '../money.ts';
import { apiBase, resourceByName } from '../screens/resources.ts';
import { usePillLayout } from '../text-mode.tsx';
import type { FieldDisplayProps } from './field-types.ts';
import { useLookupName } from './lookup-name.ts';

const EMPTY = '—';

function optionName(props: FieldDisplayProps, id: unknown): string {
  return props.field.options?.find((o) => o.Id === id)?.Name ?? String(id);
}

/** Cents in the signed-in association's currency (platform/money.ts). */
export { formatMoney };

/** The text of a value as lists, cards, reports and print previews show it. */
export function displayText(props: FieldDisplayProps): string {
  const { field, value } = props;
  if (value === null || value === undefined || value === '') return field.type === 'boolean' ? 'No' : EMPTY;
  switch (field.type) {
    case 'currency':
      return typeof value === 'number' ? formatMoney(value) : String(value);
    case 'number':
      return typeof value === 'number' ? new Intl.NumberFormat('en-US').format(value) : String(value);
    case 'boolean':
      return value === true ? 'Yes' : 'No';
    case 'date':
      return typeof value === 'string' && isCalendarDay(value.slice(0, 10))
        ? formatDateInput(value.slice(0, 10))
        : String(value);
    case 'datetime':
      return typeof value === 'string'
        ? formatDateValue(value, DATE_TYPES.DateAndTime, props.context.timeZone)
        : String(value);
    case 'phone':
      return formatPhone(String(value));
    case 'country':
      return `${countryName(String(value))} (${String(value)})`;
    case 'select':
    case 'selectValid':
      return optionName(props, value);
    case 'multiSelect':
      return Array.isArray(value) && value.length > 0
        ? value.map((v) => optionName(props, v)).join(', ')
        : EMPTY;
    case 'flags': {
      const keys = bitmaskToKeys(Number(value));
      return keys.length > 0 ? keys.map((k) => optionName(props, k)).join(', ') : EMPTY;
    }
    case 'decimalRange':
      return describeDecimalRange(value as DecimalRange);
    case 'dateRange': {
      const r = value as DateRangeValue;
      const name = DATE_RANGE_OPTIONS.find((o) => o.Id === r.Range)?.Name ?? '';
      if (r.Range !== 0) return name;
      const start = r.StartDate ? formatDateInput(r.StartDate) : '…';
      const end = r.EndDate ? formatDateInput(r.EndDate) : '…';
      return `${start} – ${end}`;
    }
    case 'richText':
      return String(value)
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    case 'image':
      return 'Image';
    case 'text':
    case 'textarea':
    case 'time':
    case 'website':
    case 'email':
    case 'timezone':
    case 'lookup':
      return String(value);
    default: {
      const unknownType: never = field.type;
      throw new Error(`No display for the field type ${String(unknownType)}`);
    }
  }
}

export function TextDisplay(props: FieldDisplayProps) {
  return <span>{displayText(props)}</span>;
}

/** A value in a badge: cut, wrapped or whole as the list column it is drawn in says (whole elsewhere). */
export function BadgeDisplay(props: FieldDisplayProps) {
  // Outside a list (a record's card, a report): whole.
  const layout = usePillLayout(2);
  if (props.value === null || props.value === undefined || props.value === '') return <span>{EMPTY}</span>;
  return (
    <Badge variant="light" color="guild" c="var(--mantine-color-guild-9)" radius="sm" {...layout}>
      {displayText(props)}
    </Badge>
  );
}

export function LinkDisplay(props: FieldDisplayProps) {
  const text = displayText(props);
  if (text === EMPTY) return <span>{EMPTY}</span>;
  const href = props.field.type === 'email' ? `mailto:${text}` : text;
  return (
    <Text
      component="a"
      href={href}
      size="sm"
      c="var(--mantine-color-anchor)"
      target="_blank"
      rel="noreferrer"
    >
      {text}
    </Text>
  );
}

/** A lookup field shows the chosen record's name (read through its lookup), its id only until then. */
export function LookupDisplay(props: FieldDisplayProps) {
  const source = props.field.lookup?.source;
  const target = source ? resourceByName(source) : null;
  const name = useLookupName(target ? `${apiBase(target)}/${target.view}Lookup` : null, props.value);
  if (props.value === null || props.value === undefined || props.value === '') return <span>{EMPTY}</span>;
  return <span>{name ?? String(props.value)}</span>;
}

/** The id of a library file as an image field holds it, or null. */
export function imageFileId(value: unknown): number | null {
  const id = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** An image field shows its image's thumbnail (150x150, drawn at `size` pixels), named by the field's label. */
export function ImageDisplay(props: FieldDisplayProps & { size?: number }) {
  const id = imageFileId(props.value);
  if (id === null) return <span>{EMPTY}</span>;
  const size = props.size ?? 40;
  return (
    <img
      src={fileImageUrl(id, 'thumbnail')}
      alt={props.field.label}
      width={size}
      height={size}
      loading="lazy"
      className="gh-image"
      style={{ display: 'block', objectFit: 'cover', borderRadius: 4 }}
    />
  );
}

export function MultilineDisplay(props: FieldDisplayProps) {
  return <span style={{ whiteSpace: 'pre-wrap' }}>{displayText(props)}</span>;
}

/** A column renderer that shows the value as a given field type, whatever the field's own type. */
export function displayAs(type: FieldType, Display: ComponentType<FieldDisplayProps> = TextDisplay) {
  function DisplayAs(props: FieldDisplayProps) {
    return <Display {...props} field={{ ...props.field, type }} />;
  }
  DisplayAs.displayName = `DisplayAs(${type})`;
  return DisplayAs;
}

const ENTRY_TYPES: Record<string, FieldType> = { email: 'email', phone: 'phone', website: 'website' };

/** `contactEntry`: a contact-info value shown as the type its row's `CommType` names (email and website link). */
export function ContactEntryDisplay(props: FieldDisplayProps) {
  const type = ENTRY_TYPES[String(props.row?.CommType ?? '')] ?? 'text';
  const field = { ...props.field, type };
  return type === 'email' || type === 'website' ? (
    <LinkDisplay {...props} field={field} />
  ) : (
    <TextDisplay {...props} field={field} />
  );
}
