import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { samplesResource } from '../samples/samples.resource.ts';
import { COUNTRY_MESSAGE } from './fields/country.rules.ts';
import { PHONE_MESSAGES } from './fields/phone.rules.ts';
import { WEBSITE_MESSAGE } from './fields/website.rules.ts';
import type { FieldDeclaration } from './resource.ts';
import { normalizeField, normalizeModel } from './resource-model.ts';

const f = (type: FieldDeclaration['type'], extra: Partial<FieldDeclaration> = {}): FieldDeclaration => ({
  type,
  label: 'Field',
  ...extra,
});
const value = (field: FieldDeclaration, raw: unknown, options = {}) => normalizeField(field, raw, options);

describe('normalizeField: one rule per field type', () => {
  it('empty values: required fields say so, optional ones become null', () => {
    expect(value(f('text', { required: true }), '  ')).toEqual({ error: 'Field is required.' });
    expect(value(f('text'), null)).toEqual({ value: null });
    expect(value(f('boolean'), undefined)).toEqual({ value: false });
    expect(value(f('boolean', { required: true }), '')).toEqual({ error: 'Field is required.' });
  });

  it('text: trimmed, at most maxLength characters; textarea and rich text keep their spaces', () => {
    expect(value(f('text', { maxLength: 5 }), ' abc ')).toEqual({ value: 'abc' });
    expect(value(f('text', { maxLength: 2 }), 'abc')).toEqual({ error: 'Field has at most 2 characters.' });
    expect(value(f('textarea'), ' a ')).toEqual({ value: ' a ' });
    expect(value(f('richText'), 42)).toEqual({ error: 'Field must be text.' });
  });

  it('number: below the minimum is invalid, above the maximum clamps (spec 000 section 5)', () => {
    expect(value(f('number', { min: 0, max: 10 }), 11)).toEqual({ value: 10 });
    expect(value(f('number', { min: 0, max: 10 }), -1)).toEqual({ error: 'Field is at least 0.' });
    expect(value(f('number'), '7')).toEqual({ value: 7 });
    expect(value(f('number'), 'seven')).toEqual({ error: 'Field must be a number.' });
  });

  it('currency: text strips commas and becomes cents; a whole number is cents already', () => {
    expect(value(f('currency'), '1,234.50')).toEqual({ value: 123_450 });
    expect(value(f('currency'), 995)).toEqual({ value: 995 });
    expect(value(f('currency'), 9.95)).toEqual({ error: 'Field must be an amount of money.' });
    expect(value(f('currency', { min: 0 }), '-1')).toEqual({ error: 'Field is at least 0.' });
  });

  it('boolean: yes/true/1 and no/false/0 in any case', () => {
    expect(value(f('boolean'), 'YES')).toEqual({ value: true });
    expect(value(f('boolean'), 0)).toEqual({ value: false });
    expect(value(f('boolean'), 'maybe')).toEqual({ error: 'Field must be yes or no.' });
    expect(value(f('boolean'), {})).toEqual({ error: 'Field must be yes or no.' });
  });

  it('dates, date-times and times', () => {
    expect(value(f('date'), '2026-11-22')).toEqual({ value: '2026-11-22' });
    expect(value(f('date'), '11/22/2026')).toEqual({ value: '2026-11-22' });
    expect(value(f('date'), 5)).toEqual({ error: 'Field must be a date.' });
    expect('error' in value(f('date'), '13/45/2026')).toBe(true);
    expect(value(f('datetime'), '2026-11-22T10:00:00Z')).toEqual({ value: '2026-11-22T10:00:00.000Z' });
    expect(value(f('datetime'), 'soon')).toEqual({ error: 'Field must be a date and time.' });
    expect(value(f('time'), '09:30')).toEqual({ value: '09:30' });
    expect(value(f('time'), '25:00')).toEqual({ error: 'Field must be a time (hh:mm).' });
  });

  it('phone keeps digits; website gets the prefix; email is validated', () => {
    expect(value(f('phone'), '(312) 555-0100')).toEqual({ value: '3125550100' });
    expect(value(f('phone'), '+44 20 7946 0958 x12')).toEqual({ value: '+442079460958 x12' });
    // What is not a phone number is refused with the reason, never saved empty (a number was erased that way).
    expect(value(f('phone', { required: true }), 'abc')).toEqual({
      error: `Field: ${PHONE_MESSAGES.characters}`,
    });
    expect(value(f('phone'), 'abc')).toEqual({ error: `Field: ${PHONE_MESSAGES.characters}` });
    expect(value(f('phone'), '555-1234')).toEqual({ error: `Field: ${PHONE_MESSAGES.northAmerican}` });
    expect(value(f('website'), 'example.org', { websitePrefix: 'https://' })).toEqual({
      value: 'https://example.org',
    });
    expect(value(f('website'), 'not a url')).toEqual({ error: `Field: ${WEBSITE_MESSAGE}` });
    expect(value(f('country'), 'gb')).toEqual({ value: 'GB' });
    expect(value(f('country'), 'United Kingdom')).toEqual({ value: 'GB' });
    expect(value(f('country'), 'Germany')).toEqual({ value: 'DE' });
    expect(value(f('country'), 'Atlantis')).toEqual({ error: `Field: ${COUNTRY_MESSAGE}` });
    expect(value(f('website', { maxLength: 10 }), 'example.org')).toEqual({
      error: 'Field has at most 10 characters.',
    });
    expect(value(f('email'), ' ana@example.org ')).toEqual({ value: 'ana@example.org' });
    expect('error' in value(f('email'), 'not-an-email')).toBe(true);
  });

  it('selects: a select needs a listed value; select-with-valid-values empties an unlisted one', () => {
    const options = [
      { Id: 1, Name: 'One' },
      { Id: 2, Name: 'Two' },
    ];
    expect(value(f('select', { options }), 2)).toEqual({ value: 2 });
    expect(value(f('select', { options }), 3)).toEqual({ error: 'Choose one of the listed Field.' });
    expect(value(f('selectValid', { options }), 3)).toEqual({ value: null });
    expect(value(f('selectValid', { options, required: true }), 3)).toEqual({ error: 'Field is required.' });
    expect(value(f('multiSelect', { options }), [1, 3])).toEqual({ value: [1] });
    expect(value(f('multiSelect', { options }), 'x')).toEqual({ error: 'Field must be a list.' });
    expect(value(f('multiSelect', { options, required: true }), [])).toEqual({
      error: 'Choose at least one Field.',
    });
    expect(value(f('multiSelect', { options }), null)).toEqual({ value: [] });
  });

  it('flags: a bitmask of known flags', () => {
    const options = [
      { Id: 1, Name: 'Mon' },
      { Id: 2, Name: 'Tue' },
      { Id: 4, Name: 'Wed' },
    ];
    expect(value(f('flags', { options }), 5)).toEqual({ value: 5 });
    expect(value(f('flags', { options }), 8)).toEqual({ error: 'Field holds an unknown flag.' });
    expect(value(f('flags', { options }), -1)).toEqual({ error: 'Field must be a set of flags.' });
    expect(value(f('flags', { options, required: true }), 0)).toEqual({
      error: 'Choose at least one Field.',
    });
    expect(value(f('flags', { options }), null)).toEqual({ value: 0 });
  });

  it('ranges: decimal and date ranges need a start no later than the end', () => {
    expect(value(f('decimalRange'), { StartValue: 1, EndValue: 2 })).toEqual({
      value: { StartValue: 1, EndValue: 2 },
    });
    expect(value(f('decimalRange'), { StartValue: 3, EndValue: 2 })).toEqual({
      error: 'Field: the start is after the end.',
    });
    // An empty side is open (spec 001 section 3: stored as -2147483647 and 2147483647).
    expect(value(f('decimalRange'), { StartValue: '1' })).toEqual({
      value: { StartValue: 1, EndValue: 2147483647 },
    });
    expect(value(f('decimalRange'), { StartValue: 'one' })).toEqual({
      error: 'Field needs numbers (leave a side empty for no limit).',
    });
    expect(value(f('dateRange'), { Range: 0, StartDate: '2026-01-01', EndDate: '2026-02-01' })).toEqual({
      value: { Range: 0, StartDate: '2026-01-01', EndDate: '2026-02-01' },
    });
    expect(value(f('dateRange'), { Range: 0, StartDate: '2026-03-01', EndDate: '2026-02-01' })).toEqual({
      error: 'Field: the start is after the end.',
    });
    expect(value(f('dateRange'), { Range: 99 })).toEqual({ error: 'Choose a Field option.' });
  });

  it('time zones and lookups', () => {
    expect(value(f('timezone'), 'America/Chicago')).toEqual({ value: 'America/Chicago' });
    expect(value(f('timezone'), 'Mars/Base')).toEqual({ error: 'Choose a known time zone.' });
    expect(value(f('lookup'), '12')).toEqual({ value: 12 });
    expect(value(f('lookup'), -3)).toEqual({ error: 'Choose a Field.' });
  });

  it('images: the id of a library file, nothing else', () => {
    expect(value(f('image'), 42)).toEqual({ value: 42 });
    expect(value(f('image'), '42')).toEqual({ value: 42 });
    expect(value(f('image'), null)).toEqual({ value: null });
    for (const wrong of [0, -1, 1.5, 'photo.jpg', { FileId: 3 }, [4]])
      expect(value(f('image'), wrong)).toEqual({ error: 'Field: choose an image of the library.' });
    expect(normalizeField({ type: 'image', label: 'Image', required: true }, '')).toEqual({
      error: 'Image is required.',
    });
  });

  it('answers an error, not an exception, for a value no conversion accepts', () => {
    const hostile = { toString: 0 };
    for (const field of Object.values(samplesResource.fields))
      expect(() => normalizeField(field, hostile, { timeZone: 'America/Chicago' })).not.toThrow();
    expect(normalizeField({ type: 'number', label: 'Id' }, hostile)).toEqual({ error: 'Id is not valid.' });
  });

  it('never throws, whatever it is given', () => {
    const types = Object.values(samplesResource.fields);
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.anything(), (field, raw) => {
        const r = normalizeField(field, raw, { timeZone: 'America/Chicago' });
        expect('value' in r || 'error' in r).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('normalizeModel', () => {
  it('skips read-only fields, names every wrong field, and limits an inline edit to its fields', () => {
    const { model, errors } = normalizeModel(samplesResource, { SampleId: 99, Name: '', Quantity: 5000 });
    expect(model).not.toHaveProperty('SampleId');
    expect(errors.Name).toEqual(['Name is required.']);
    expect(model.Quantity).toBe(1000);
    const inline = normalizeModel(samplesResource, { Name: 'Only the name' }, { only: ['Name'] });
    expect(inline).toEqual({ model: { Name: 'Only the name' }, errors: {} });
  });
});
