import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customFieldEntities, defineResource } from '../platform/resource.ts';
import { type SelectListItem, CUSTOM_FIELD_DATA_TYPES as T } from './custom-fields.rules.ts';
import { customFieldBody, typeChangeBody } from './custom-fields.schema.ts';
import {
  type CustomFieldRuleModel,
  convertCustomValue,
  customFieldDeclaration,
  customFieldIdOfKey,
  customFieldKey,
  customValueText,
  fieldsOfPage,
  formPages,
  hasCustomValue,
  missingRequired,
  nextPage,
  normalizeCustomValue,
  offeredChoices,
  otherChoice,
  pagePath,
} from './custom-values.rules.ts';

const choice = (Id: number, Name: string, extra: Partial<SelectListItem> = {}): SelectListItem => ({
  Id,
  Name,
  GoTo: null,
  DisableUpdate: false,
  IsHidden: false,
  isDeleted: false,
  ...extra,
});
let nextId = 1;
const field = (type: number, extra: Partial<CustomFieldRuleModel> = {}): CustomFieldRuleModel => ({
  CustomFieldId: nextId++,
  Name: 'Field',
  CustomFieldDataTypeId: type,
  Required: false,
  PageNumber: 1,
  SortOrder: 0,
  SelectListItems: [],
  ...extra,
});
const colours = [choice(1, 'Red'), choice(2, 'Blue'), choice(3, 'Gone', { isDeleted: true })];
const other = choice(9, 'Other', { IsHidden: true, DisableUpdate: true });
const value = (f: CustomFieldRuleModel, raw: unknown) => normalizeCustomValue(f, raw);

describe('custom field keys', () => {
  it('round-trips a field id through its model key and refuses built-in names', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        (id) => customFieldIdOfKey(customFieldKey(id)) === id,
      ),
    );
    expect(customFieldIdOfKey('DisplayName')).toBeNull();
    expect(customFieldIdOfKey('cf_x')).toBeNull();
  });
});

describe('a custom field as a built-in field type', () => {
  it.each([
    [T.Text, 'text'],
    [T.MultiLineText, 'textarea'],
    [T.Number, 'number'],
    [T.Currency, 'currency'],
    [T.Date, 'date'],
    [T.DateTime, 'datetime'],
    [T.Dropdown, 'select'],
    [T.DropdownWithFillIn, 'select'],
    [T.YesNo, 'select'],
    [T.MultiChoice, 'multiSelect'],
    [T.Checkbox, 'boolean'],
    [T.Email, 'email'],
    [T.Phone, 'phone'],
    [T.Website, 'website'],
  ])('type %i is shown as %s', (type, built) => {
    expect(customFieldDeclaration(field(type))?.type).toBe(built);
  });

  it('has no built-in declaration for a file upload or a section heading', () => {
    expect(customFieldDeclaration(field(T.FileUpload))).toBeNull();
    expect(customFieldDeclaration(field(T.SectionHeading))).toBeNull();
  });

  it('offers live, visible, saved choices only, carries help text, required and archived', () => {
    const d = customFieldDeclaration(
      field(T.DropdownWithFillIn, {
        SelectListItems: [...colours, other, choice(0, 'Unsaved')],
        HelpText: 'Pick one',
        Required: true,
        IsArchived: true,
      }),
    );
    expect(d?.options).toEqual([
      { Id: 1, Name: 'Red' },
      { Id: 2, Name: 'Blue' },
    ]);
    expect(d).toMatchObject({ tooltip: 'Pick one', required: true, readOnly: true });
    expect(otherChoice(field(T.DropdownWithFillIn, { SelectListItems: [...colours, other] }))?.Id).toBe(9);
    expect(otherChoice(field(T.Dropdown, { SelectListItems: colours }))).toBeNull();
  });
});

describe('values are checked against their field type (every write path)', () => {
  it.each([
    [T.Text, '  hello ', 'hello'],
    [T.MultiLineText, 'a\nb', 'a\nb'],
    [T.Number, '12.5', 12.5],
    [T.Currency, '1,234.50', 123450],
    [T.Currency, 250, 250],
    [T.Date, '2026-03-01', '2026-03-01'],
    [T.DateTime, '2026-03-01T10:00:00Z', '2026-03-01T10:00:00.000Z'],
    [T.Checkbox, 'yes', true],
    [T.Checkbox, null, false],
    [T.Email, 'ann@example.org', 'ann@example.org'],
    [T.Website, 'example.org', 'http://example.org'],
  ])('type %i takes %j as %j', (type, raw, expected) => {
    expect(value(field(type), raw)).toEqual({ value: expected });
  });

  it.each([
    [T.Text, 42],
    [T.Text, 'x'.repeat(501)],
    [T.Number, 'twelve'],
    [T.Currency, 'a lot'],
    [T.Currency, 1.5],
    [T.Date, '31/31/2026'],
    [T.DateTime, 'yesterday-ish'],
    [T.Email, 'not-an-address'],
    [T.Phone, 'call me'],
    [T.Website, 'javascript:alert(1)'],
    [T.Checkbox, 'perhaps'],
  ])('type %i refuses %j with a message', (type, raw) => {
    const check = value(field(type, { Name: 'Thing' }), raw);
    expect(check).toHaveProperty('error');
  });

  it('takes a dropdown answer by id or by name (import), never a deleted or unknown choice', () => {
    const f = field(T.Dropdown, { Name: 'Colour', SelectListItems: colours });
    expect(value(f, 2)).toEqual({ value: 2 });
    expect(value(f, '2')).toEqual({ value: 2 });
    expect(value(f, ' red ')).toEqual({ value: 1 });
    expect(value(f, 3)).toEqual({ error: 'Choose one of the listed Colour.' });
    expect(value(f, 'Green')).toEqual({ error: 'Choose one of the listed Colour.' });
    expect(value(f, { Other: 'Green' })).toEqual({ error: 'Choose one of the listed Colour.' });
  });

  it('takes a fill-in answer as text for Other, and a listed name as its choice', () => {
    const f = field(T.DropdownWithFillIn, { SelectListItems: [...colours, other] });
    expect(value(f, 'Green')).toEqual({ value: { Other: 'Green' } });
    expect(value(f, { Other: ' Teal ' })).toEqual({ value: { Other: 'Teal' } });
    expect(value(f, 'blue')).toEqual({ value: 2 });
    expect(value(f, 1)).toEqual({ value: 1 });
    expect(value(f, { Other: '' })).toEqual({ value: null });
    expect(value(f, 'x'.repeat(501))).toHaveProperty('error');
  });

  it('takes multi-choice answers as ids or names, once each', () => {
    const f = field(T.MultiChoice, { SelectListItems: colours });
    expect(value(f, [2, 1, 2])).toEqual({ value: [2, 1] });
    expect(value(f, 'Red; blue')).toEqual({ value: [1, 2] });
    expect(value(f, 1)).toEqual({ value: [1] });
    expect(value(f, [1, 3])).toHaveProperty('error');
    expect(value(f, [])).toEqual({ value: null });
  });

  it('takes a yes/no answer as one of its two choices', () => {
    const f = field(T.YesNo, { SelectListItems: [choice(1, 'Yes'), choice(2, 'No')] });
    expect(value(f, 'no')).toEqual({ value: 2 });
    expect(value(f, true)).toHaveProperty('error');
  });

  it('takes the uploaded-file model of a file field (spec 001 §3) and nothing else', () => {
    const f = field(T.FileUpload);
    const file = { Name: 'cv.pdf', Url: '/api/files/7/download', ContentType: 'application/pdf', FileId: 7 };
    expect(value(f, file)).toEqual({ value: file });
    expect(value(f, { ...file, FileId: 0 })).toHaveProperty('error');
    expect(value(f, 'cv.pdf')).toHaveProperty('error');
    expect(value(f, { Name: 'x', Url: 'y', FileId: 3 })).toEqual({
      value: { Name: 'x', Url: 'y', ContentType: null, FileId: 3 },
    });
  });

  it('asks for a required answer unless told the form decides, and a heading holds nothing', () => {
    const f = field(T.Text, { Name: 'Badge name', Required: true });
    expect(value(f, '')).toEqual({ error: 'Badge name is required.' });
    expect(normalizeCustomValue(f, '', { ignoreRequired: true })).toEqual({ value: null });
    expect(value(field(T.Checkbox, { Name: 'Consent', Required: true }), false)).toEqual({
      error: 'Consent must be ticked.',
    });
    expect(
      value(field(T.MultiChoice, { Name: 'Topics', Required: true, SelectListItems: colours }), []),
    ).toEqual({
      error: 'Topics is required.',
    });
    expect(value(field(T.SectionHeading), 'anything')).toEqual({ value: null });
  });

  it('never throws, whatever it is given', () => {
    const types = Object.values(T);
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.anything(), (type, raw) => {
        const check = value(field(type, { SelectListItems: [...colours, other] }), raw);
        return 'value' in check || typeof check.error === 'string';
      }),
    );
  });
});

describe('values as people read them', () => {
  it('names choices, shows money and yes/no', () => {
    const f = field(T.MultiChoice, { SelectListItems: colours });
    expect(customValueText(f, [1, 3])).toBe('Red; Gone');
    expect(customValueText(f, [7])).toBe('(removed choice 7)');
    expect(customValueText(field(T.Dropdown, { SelectListItems: colours }), 2)).toBe('Blue');
    expect(
      customValueText(field(T.DropdownWithFillIn, { SelectListItems: [other] }), { Other: 'Teal' }),
    ).toBe('Teal');
    expect(customValueText(field(T.Currency), 123450)).toBe('1234.50');
    expect(customValueText(field(T.Checkbox), false)).toBe('No');
    expect(customValueText(field(T.FileUpload), { Name: 'cv.pdf' })).toBe('cv.pdf');
    expect(customValueText(field(T.Text), null)).toBe('');
    expect(customValueText(field(T.Number), 3)).toBe('3');
    expect(hasCustomValue(false)).toBe(true);
    expect(hasCustomValue([])).toBe(false);
  });
});

describe('what a type change does to stored values (the dry run counts these)', () => {
  const text = field(T.Text);
  const number = field(T.Number);
  const dropdown = field(T.Dropdown, { SelectListItems: colours });
  const multi = field(T.MultiChoice, { SelectListItems: colours });

  it('keeps a value the new type holds as it is', () => {
    expect(
      convertCustomValue(dropdown, field(T.DropdownWithFillIn, { SelectListItems: [...colours, other] }), 2),
    ).toEqual({
      kind: 'kept',
      value: 2,
    });
    expect(convertCustomValue(text, text, 'x')).toEqual({ kind: 'kept', value: 'x' });
    expect(convertCustomValue(text, number, null)).toEqual({ kind: 'kept', value: null });
  });

  it('converts through the value as read, and loses what the new type cannot hold', () => {
    expect(convertCustomValue(text, number, '42')).toEqual({ kind: 'converted', value: 42 });
    expect(convertCustomValue(text, number, 'forty-two')).toEqual({ kind: 'lost', value: null });
    expect(convertCustomValue(number, text, 7)).toEqual({ kind: 'converted', value: '7' });
    expect(convertCustomValue(dropdown, text, 1)).toEqual({ kind: 'converted', value: 'Red' });
    expect(convertCustomValue(text, dropdown, 'blue')).toEqual({ kind: 'converted', value: 2 });
    expect(convertCustomValue(text, dropdown, 'green')).toEqual({ kind: 'lost', value: null });
    expect(convertCustomValue(dropdown, multi, 2)).toEqual({ kind: 'converted', value: [2] });
    expect(convertCustomValue(multi, dropdown, [2])).toEqual({ kind: 'converted', value: 2 });
    expect(convertCustomValue(multi, dropdown, [1, 2])).toEqual({ kind: 'lost', value: null });
    expect(convertCustomValue(field(T.Currency), number, 1250)).toEqual({ kind: 'converted', value: 12.5 });
    expect(convertCustomValue(number, field(T.Currency), 12.5)).toEqual({ kind: 'converted', value: 1250 });
    expect(convertCustomValue(text, field(T.Checkbox), 'Yes')).toEqual({ kind: 'converted', value: true });
    expect(convertCustomValue(text, field(T.Checkbox), 'maybe')).toEqual({ kind: 'lost', value: null });
    expect(convertCustomValue(text, field(T.SectionHeading), 'x')).toEqual({ kind: 'lost', value: null });
  });

  it('always answers a value the new type accepts (or none)', () => {
    const types = Object.values(T).filter((t) => t !== T.FileUpload);
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.constantFrom(...types),
        fc.oneof(fc.string(), fc.integer(), fc.constantFrom('Red', 'blue', '2026-01-02', 'yes')),
        (from, to, raw) => {
          const a = field(from, { SelectListItems: colours });
          const b = field(to, { SelectListItems: colours });
          const stored = normalizeCustomValue(a, raw, { ignoreRequired: true });
          if ('error' in stored) return true;
          const out = convertCustomValue(a, b, stored.value);
          if (out.kind === 'lost') return out.value === null;
          if (!hasCustomValue(out.value)) return true;
          const again = normalizeCustomValue(b, out.value, { ignoreRequired: true });
          return 'value' in again && JSON.stringify(again.value) === JSON.stringify(out.value);
        },
      ),
    );
  });
});

describe('pages and branching', () => {
  const q1 = field(T.YesNo, {
    CustomFieldId: 101,
    PageNumber: 1,
    SelectListItems: [choice(1, 'Yes', { GoTo: 3 }), choice(2, 'No')],
  });
  const q2 = field(T.Text, { CustomFieldId: 102, PageNumber: 2, Required: true, SortOrder: 2 });
  const q2b = field(T.Text, { CustomFieldId: 103, PageNumber: 2, SortOrder: 1 });
  const q3 = field(T.Text, { CustomFieldId: 104, PageNumber: 3, Required: true });
  const form = [q3, q2, q1, q2b];

  it('orders pages and the fields of a page', () => {
    expect(formPages(form)).toEqual([1, 2, 3]);
    expect(formPages([])).toEqual([1]);
    expect(fieldsOfPage(form, 2).map((f) => f.CustomFieldId)).toEqual([103, 102]);
  });

  it('jumps to a later page a choice names, else goes to the next page', () => {
    expect(nextPage(form, { 101: 1 }, 1)).toBe(3);
    expect(nextPage(form, { 101: 2 }, 1)).toBe(2);
    expect(nextPage(form, {}, 1)).toBe(2);
    expect(nextPage(form, {}, 3)).toBeNull();
    expect(pagePath(form, { 101: 1 })).toEqual([1, 3]);
    expect(pagePath(form, {})).toEqual([1, 2, 3]);
  });

  it('ignores a branch to an earlier or missing page and a multi-choice', () => {
    const back = field(T.Dropdown, {
      PageNumber: 2,
      SelectListItems: [choice(1, 'A', { GoTo: 1 }), choice(2, 'B', { GoTo: 7 })],
    });
    expect(nextPage([q1, back, q3], { [back.CustomFieldId]: 1 }, 2)).toBe(3);
    expect(nextPage([q1, back, q3], { [back.CustomFieldId]: 2 }, 2)).toBe(3);
    const multi = field(T.MultiChoice, { PageNumber: 1, SelectListItems: [choice(1, 'A', { GoTo: 3 })] });
    expect(nextPage([multi, q2, q3], { [multi.CustomFieldId]: 1 }, 1)).toBe(2);
  });

  it('follows the Other choice of a fill-in when its answer is a fill-in', () => {
    const fill = field(T.DropdownWithFillIn, {
      PageNumber: 1,
      SelectListItems: [choice(1, 'A'), choice(9, 'Other', { IsHidden: true, DisableUpdate: true, GoTo: 3 })],
    });
    expect(nextPage([fill, q2, q3], { [fill.CustomFieldId]: { Other: 'x' } }, 1)).toBe(3);
    expect(nextPage([fill, q2, q3], { [fill.CustomFieldId]: 1 }, 1)).toBe(2);
  });

  it('requires answers only on the pages the answers go through', () => {
    expect(missingRequired(form, { 101: 1 }).map((f) => f.CustomFieldId)).toEqual([104]);
    expect(missingRequired(form, { 101: 2 }).map((f) => f.CustomFieldId)).toEqual([104, 102]);
    expect(missingRequired(form, { 101: 2, 102: 'x', 104: 'y' })).toEqual([]);
    const archived = field(T.Text, { Required: true, IsArchived: true });
    const consent = field(T.Checkbox, { Required: true });
    expect(missingRequired([archived, consent], { [consent.CustomFieldId]: false })).toEqual([consent]);
    expect(missingRequired([archived, consent], { [consent.CustomFieldId]: true })).toEqual([]);
  });
});

describe('opting in and wire shapes', () => {
  it('finds the resources that take custom fields by entity, never a fixture', () => {
    const base = {
      feature: 'x',
      subfeature: 'y',
      view: 'Y',
      title: 'Things',
      table: 't',
      key: 'Id',
      permissions: { read: 'backoffice', write: 'backoffice' },
      fields: { Id: { type: 'number', label: 'Id' } },
      columns: [{ field: 'Id' }],
      sortable: ['Id'],
      filterable: [],
      form: [],
      defaultSort: { field: 'Id', direction: 'asc' },
    } as const;
    const a = defineResource({ ...base, name: 'a', customFields: { entity: 'Thing' } });
    const b = defineResource({ ...base, name: 'b' });
    const c = defineResource({ ...base, name: 'c', fixture: true, customFields: { entity: 'Fixture' } });
    expect([...customFieldEntities([a, b, c]).keys()]).toEqual(['Thing']);
  });

  it('defaults a definition and refuses an unknown data type', () => {
    const parsed = customFieldBody.parse({ Entity: 'Contact', Name: 'Shirt size', CustomFieldDataTypeId: 6 });
    expect(parsed).toMatchObject({
      Required: false,
      PageNumber: 1,
      Visibility: 'staff',
      SelectListItems: [],
    });
    expect(
      customFieldBody.safeParse({ Entity: 'Contact', Name: 'x', CustomFieldDataTypeId: 99 }).success,
    ).toBe(false);
    expect(typeChangeBody.parse({ CustomFieldDataTypeId: 1 }).Confirm).toBe(false);
    expect(offeredChoices({ SelectListItems: colours })).toHaveLength(2);
  });
});
