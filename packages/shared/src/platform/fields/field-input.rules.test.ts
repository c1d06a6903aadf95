import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyNumberLimits,
  canAddItem,
  countLiveItems,
  hasRequiredSelection,
  isConfirmPhraseTyped,
  keepAllowedValue,
  keepAllowedValues,
  parseBooleanInput,
  parseCurrencyInput,
  parseJsonObject,
  SAVE_CHANGED_FIELDS_QUESTION,
  STICKY_FIELD_DELAY_MS,
  truncateToMaxLength,
} from './field-input.rules.ts';

describe('field input rules (spec 000 §5)', () => {
  it.each([
    ['Annual meeting', 6, 'Annual'],
    ['short', 10, 'short'],
    ['emoji 🎉🎉', 7, 'emoji 🎉'],
    ['anything', null, 'anything'],
    ['anything', -1, 'anything'],
    ['abc', 0, ''],
  ])('"Max-length inputs truncate typed text to the limit": %j at %j', (text, max, expected) => {
    expect(truncateToMaxLength(text, max)).toBe(expected);
  });

  it('property: truncation never exceeds the limit and keeps a prefix', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat({ max: 50 }), (text, max) => {
        const cut = truncateToMaxLength(text, max);
        expect(Array.from(cut).length).toBeLessThanOrEqual(max);
        expect(text.startsWith(cut)).toBe(true);
      }),
    );
  });

  it.each([
    ['yes', true],
    ['TRUE', true],
    [' 1 ', true],
    [1, true],
    [true, true],
    ['No', false],
    ['false', false],
    ['0', false],
    [0, false],
    [false, false],
    ['y', null],
    ['maybe', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('"Boolean inputs accept yes/true/1 and no/false/0": %j -> %j', (input, expected) => {
    expect(parseBooleanInput(input)).toBe(expected);
  });

  it.each([
    ['1,234.50', 123450],
    ['$1,234.50', 123450],
    ['-$5', -500],
    ['$-5', -500],
    ['-5.25', -525],
    [' 12 ', 1200],
    ['.5', 50],
    ['1,2,3', 12300],
    ['€10', 1000],
    ['-0', 0],
    [12.34, 1234],
    ['12.345', 1235],
    ['abc', null],
    ['$', null],
    ['1.2.3', null],
    ['12$', null],
    ['', null],
    [null, null],
  ])('"Currency input strips commas": %j -> %j cents', (input, expected) => {
    expect(parseCurrencyInput(input)).toBe(expected);
  });

  it.each([
    [5, { min: 1, max: 10 }, { value: 5, valid: true }],
    [0, { min: 1, max: 10 }, { value: 0, valid: false }],
    [11, { min: 1, max: 10 }, { value: 10, valid: true }],
    [-3, {}, { value: -3, valid: true }],
    [Number.NaN, { min: 0 }, { value: Number.NaN, valid: false }],
    [7, { min: null, max: null }, { value: 7, valid: true }],
  ])(
    '"below the minimum marks invalid; above the maximum clamps to the maximum": %d with %j',
    (value, limits, expected) => {
      expect(applyNumberLimits(value, limits)).toEqual(expected);
    },
  );

  it('"Select-with-valid-values sets to empty any value not in the allowed list."', () => {
    expect(keepAllowedValue('b', ['a', 'b'])).toBe('b');
    expect(keepAllowedValue('z', ['a', 'b'])).toBe('');
    expect(keepAllowedValue(2, [1, 2])).toBe(2);
    expect(keepAllowedValue(null, ['a'])).toBe('');
    expect(keepAllowedValues(['a', 'z', 'b'], ['a', 'b'])).toEqual(['a', 'b']);
  });

  it('"Required multi-select and select controls need at least one item."', () => {
    expect(hasRequiredSelection([])).toBe(false);
    expect(hasRequiredSelection([3])).toBe(true);
    expect(hasRequiredSelection('')).toBe(false);
    expect(hasRequiredSelection('  ')).toBe(false);
    expect(hasRequiredSelection('a')).toBe(true);
    expect(hasRequiredSelection(0)).toBe(true);
    expect(hasRequiredSelection(null)).toBe(false);
    expect(hasRequiredSelection(undefined)).toBe(false);
  });

  it.each([
    ['{"a":1}', { a: 1 }],
    ['{bad json', {}],
    ['[1,2]', {}],
    ['42', {}],
    ['null', {}],
    ['', {}],
    [null, {}],
  ])('"Invalid JSON input yields an empty object": %j', (text, expected) => {
    expect(parseJsonObject(text)).toEqual(expected);
  });

  it('"Items cannot be added once the count of non-deleted items reaches the allowed maximum."', () => {
    const items = [{}, { isDeleted: true }, { IsDeleted: true }, { isDeleted: false }];
    expect(countLiveItems(items)).toBe(2);
    expect(canAddItem(items, 3)).toBe(true);
    expect(canAddItem(items, 2)).toBe(false);
    expect(canAddItem(items, null)).toBe(true);
    expect(canAddItem([], 0)).toBe(false);
  });

  it('"Confirmation (can require typing a given phrase before OK is enabled)"', () => {
    expect(isConfirmPhraseTyped('', null)).toBe(true);
    expect(isConfirmPhraseTyped('DELETE', 'DELETE')).toBe(true);
    expect(isConfirmPhraseTyped(' DELETE ', 'DELETE')).toBe(true);
    expect(isConfirmPhraseTyped('delete', 'DELETE')).toBe(false);
  });

  it('quotes the save question and the sticky-field delay', () => {
    expect(SAVE_CHANGED_FIELDS_QUESTION).toBe(
      'Are you sure you want to save the changed fields highlighted in orange?',
    );
    expect(STICKY_FIELD_DELAY_MS).toBe(500);
  });
});
