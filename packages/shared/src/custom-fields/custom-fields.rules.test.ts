import { describe, expect, it } from 'vitest';
import {
  BRANCHING_DATA_TYPES,
  CUSTOM_FIELD_DATA_TYPES,
  type CustomFieldChoicesModel,
  canDeleteChoice,
  changeCustomFieldType,
  clearBackwardBranches,
  customFieldDataTypeName,
  DROPDOWN_DATA_TYPES,
  type SelectListItem,
} from './custom-fields.rules.ts';

const T = CUSTOM_FIELD_DATA_TYPES;
const choice = (Id: number, Name: string, extra: Partial<SelectListItem> = {}): SelectListItem => ({
  Id,
  Name,
  GoTo: null,
  DisableUpdate: false,
  IsHidden: false,
  isDeleted: false,
  ...extra,
});
const field = (
  type: number,
  items: SelectListItem[],
  PageNumber: number | null = 2,
): CustomFieldChoicesModel => ({
  CustomFieldDataTypeId: type,
  PageNumber,
  SelectListItems: items,
});
const live = (model: CustomFieldChoicesModel) => model.SelectListItems.filter((item) => !item.isDeleted);

describe('custom field data types', () => {
  it('gives every data type id a name, and knows the ids the specification names', () => {
    const ids = Object.values(T);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(customFieldDataTypeName(id)).not.toBeNull();
    expect(customFieldDataTypeName(99)).toBeNull();
    expect(customFieldDataTypeName(6)).toBe('Dropdown');
    expect(customFieldDataTypeName(7)).toBe('DropdownWithFillIn');
    expect(customFieldDataTypeName(10)).toBe('YesNo');
    expect(DROPDOWN_DATA_TYPES).toEqual([T.Dropdown, T.DropdownWithFillIn, T.MultiChoice]);
    expect(BRANCHING_DATA_TYPES).toEqual([6, 7, 10]);
  });
});

describe('custom field type change (spec 000 §4)', () => {
  const colours = [choice(11, 'Red'), choice(12, 'Blue'), choice(0, 'Green')];

  it('"dropdown types (Dropdown, DropdownWithFillIn, MultiChoice) keep their choices"', () => {
    const changed = changeCustomFieldType(field(T.Dropdown, colours), T.MultiChoice);
    expect(changed.CustomFieldDataTypeId).toBe(T.MultiChoice);
    expect(live(changed).map((item) => item.Name)).toEqual(['Red', 'Blue', 'Green']);
  });

  it('"DropdownWithFillIn adds a hidden, undeletable choice named Other"', () => {
    const changed = changeCustomFieldType(field(T.Dropdown, colours), T.DropdownWithFillIn);
    const other = changed.SelectListItems.at(-1);
    expect(other).toMatchObject({
      Id: 0,
      Name: 'Other',
      IsHidden: true,
      DisableUpdate: true,
      isDeleted: false,
    });
    expect(other && canDeleteChoice(other)).toBe(false);
    expect(canDeleteChoice(choice(1, 'Red'))).toBe(true);
    // once only
    const again = changeCustomFieldType(changed, T.DropdownWithFillIn);
    expect(again.SelectListItems.filter((item) => item.Name === 'Other')).toHaveLength(1);
    // an existing user choice named other becomes the built-in one
    const adopted = changeCustomFieldType(field(T.Dropdown, [choice(5, 'other')]), T.DropdownWithFillIn);
    expect(adopted.SelectListItems).toEqual([choice(5, 'Other', { IsHidden: true, DisableUpdate: true })]);
  });

  it('"other types remove it": a saved Other is marked deleted, an unsaved one dropped', () => {
    const saved = field(T.DropdownWithFillIn, [
      ...colours,
      choice(40, 'Other', { IsHidden: true, DisableUpdate: true }),
    ]);
    const toDropdown = changeCustomFieldType(saved, T.Dropdown);
    expect(live(toDropdown).map((item) => item.Name)).toEqual(['Red', 'Blue', 'Green']);
    expect(toDropdown.SelectListItems.find((item) => item.Id === 40)?.isDeleted).toBe(true);
    const unsaved = changeCustomFieldType(
      changeCustomFieldType(field(T.Dropdown, colours), T.DropdownWithFillIn),
      T.MultiChoice,
    );
    expect(unsaved.SelectListItems.map((item) => item.Name)).toEqual(['Red', 'Blue', 'Green']);
    // and back again revives the saved one
    const back = changeCustomFieldType(toDropdown, T.DropdownWithFillIn);
    expect(back.SelectListItems.find((item) => item.Id === 40)).toMatchObject({
      isDeleted: false,
      IsHidden: true,
    });
  });

  it('"YesNo resets the choices to Yes and No"', () => {
    const changed = changeCustomFieldType(field(T.Dropdown, [...colours, choice(13, 'yes')]), T.YesNo);
    expect(live(changed).map((item) => [item.Id, item.Name])).toEqual([
      [13, 'Yes'],
      [0, 'No'],
    ]);
    expect(changed.SelectListItems.filter((item) => item.isDeleted).map((item) => item.Id)).toEqual([11, 12]);
  });

  it('"Any other type clears the choice list"', () => {
    const changed = changeCustomFieldType(field(T.Dropdown, colours), T.Text);
    expect(live(changed)).toEqual([]);
    expect(changed.SelectListItems.map((item) => item.Id)).toEqual([11, 12]);
    const twice = changeCustomFieldType(changed, T.Number);
    expect(twice.SelectListItems).toEqual(changed.SelectListItems);
  });

  it('"Branch targets (GoTo) pointing earlier than the field\'s page are cleared for field types 6, 7 and 10"', () => {
    const items = [choice(1, 'A', { GoTo: 1 }), choice(2, 'B', { GoTo: 2 }), choice(3, 'C', { GoTo: 5 })];
    for (const type of [6, 7, 10]) {
      expect(clearBackwardBranches(field(type, items, 2)).SelectListItems.map((item) => item.GoTo)).toEqual([
        null,
        2,
        5,
      ]);
    }
    expect(
      clearBackwardBranches(field(T.MultiChoice, items, 2)).SelectListItems.map((item) => item.GoTo),
    ).toEqual([1, 2, 5]);
    expect(clearBackwardBranches(field(T.Dropdown, items, null)).SelectListItems).toEqual(items);
    const moved = changeCustomFieldType(field(T.MultiChoice, items, 3), T.Dropdown);
    expect(moved.SelectListItems.map((item) => item.GoTo)).toEqual([null, null, 5]);
  });
});
