import type { FieldType } from '@guildhall/shared';
import { BadgeDisplay, LinkDisplay, MultilineDisplay, TextDisplay } from './field-display.tsx';
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
import type { FieldRegistry, FieldRenderer } from './field-types.ts';

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
  lookup: { Display: TextDisplay, Input: LookupFieldInput },
  richText: { Display: MultilineDisplay, Input: RichTextFieldInput },
};

/** Column renderers a list may ask for by `rendererInfo.Key`; anything else uses the field type's Display. */
export const COLUMN_RENDERERS: Record<string, FieldRenderer['Display']> = {
  badge: BadgeDisplay,
  link: TextDisplay,
  currency: TextDisplay,
  date: TextDisplay,
  boolean: TextDisplay,
};

export function displayFor(type: FieldType, rendererKey?: string): FieldRenderer['Display'] {
  return (rendererKey ? COLUMN_RENDERERS[rendererKey] : undefined) ?? FIELD_REGISTRY[type].Display;
}
