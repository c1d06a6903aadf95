import type { ColumnRendererKey, FieldType } from '@guildhall/shared';
import {
  BadgeDisplay,
  ContactEntryDisplay,
  displayAs,
  ImageDisplay,
  LinkDisplay,
  LookupDisplay,
  MultilineDisplay,
  TextDisplay,
} from './field-display.tsx';
import {
  BooleanFieldInput,
  CountryFieldInput,
  CurrencyFieldInput,
  DateFieldInput,
  DateRangeFieldInput,
  DateTimeFieldInput,
  DecimalRangeFieldInput,
  EmailFieldInput,
  FlagsFieldInput,
  ImageFieldInput,
  LookupFieldInput,
  MultiSelectFieldInput,
  NumberFieldInput,
  PhoneFieldInput,
  RichTextFieldInput,
  SelectFieldInput,
  SelectValidFieldInput,
  TextareaFieldInput,
  TextFieldInput,
  TimeFieldInput,
  TimezoneFieldInput,
  WebsiteFieldInput,
} from './field-inputs.tsx';
import type { ColumnRendererRegistry, FieldRegistry, FieldRenderer } from './field-types.ts';

/**
 * One `{ Display, Input }` per field type of the closed catalogue: a type added to `FIELD_TYPES` without an
 * entry here does not compile.
 */
export const FIELD_REGISTRY: FieldRegistry = {
  text: { Display: TextDisplay, Input: TextFieldInput },
  textarea: { Display: MultilineDisplay, Input: TextareaFieldInput },
  number: { Display: TextDisplay, Input: NumberFieldInput },
  currency: { Display: TextDisplay, Input: CurrencyFieldInput },
  boolean: { Display: TextDisplay, Input: BooleanFieldInput },
  date: { Display: TextDisplay, Input: DateFieldInput },
  datetime: { Display: TextDisplay, Input: DateTimeFieldInput },
  time: { Display: TextDisplay, Input: TimeFieldInput },
  phone: { Display: TextDisplay, Input: PhoneFieldInput },
  website: { Display: LinkDisplay, Input: WebsiteFieldInput },
  country: { Display: TextDisplay, Input: CountryFieldInput },
  email: { Display: LinkDisplay, Input: EmailFieldInput },
  select: { Display: BadgeDisplay, Input: SelectFieldInput },
  selectValid: { Display: TextDisplay, Input: SelectValidFieldInput },
  multiSelect: { Display: TextDisplay, Input: MultiSelectFieldInput },
  flags: { Display: TextDisplay, Input: FlagsFieldInput },
  decimalRange: { Display: TextDisplay, Input: DecimalRangeFieldInput },
  dateRange: { Display: TextDisplay, Input: DateRangeFieldInput },
  timezone: { Display: TextDisplay, Input: TimezoneFieldInput },
  lookup: { Display: LookupDisplay, Input: LookupFieldInput },
  richText: { Display: MultilineDisplay, Input: RichTextFieldInput },
  image: { Display: ImageDisplay, Input: ImageFieldInput },
};

/**
 * One Display per key of the closed catalogue of column renderers (`rendererInfo.Key`): a key added to
 * `COLUMN_RENDERER_KEYS` without an entry here does not compile. A column without a key uses its field type's
 * Display. `link` shows the field's text; the cell makes it the link to the record.
 */
export const COLUMN_RENDERERS: ColumnRendererRegistry = {
  badge: BadgeDisplay,
  link: TextDisplay,
  currency: displayAs('currency'),
  date: displayAs('date'),
  datetime: displayAs('datetime'),
  boolean: displayAs('boolean'),
  phone: displayAs('phone'),
  contactEntry: ContactEntryDisplay,
};

export function displayFor(type: FieldType, rendererKey?: ColumnRendererKey): FieldRenderer['Display'] {
  return rendererKey ? COLUMN_RENDERERS[rendererKey] : FIELD_REGISTRY[type].Display;
}
