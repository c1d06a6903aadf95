/**
 * Custom field data types. The specification names Dropdown, DropdownWithFillIn, MultiChoice and YesNo and says
 * branch targets are cleared "for field types 6, 7 and 10", the single-answer choice types; the other ids are
 * Guildhall's. See docs/decisions/0015-custom-field-data-types.md.
 */
export const CUSTOM_FIELD_DATA_TYPES = {
  Text: 1,
  MultiLineText: 2,
  Number: 3,
  Currency: 4,
  Date: 5,
  Dropdown: 6,
  DropdownWithFillIn: 7,
  MultiChoice: 8,
  Checkbox: 9,
  YesNo: 10,
  Email: 11,
  Phone: 12,
  Website: 13,
  FileUpload: 14,
  DateTime: 15,
  SectionHeading: 16,
} as const;
export type CustomFieldDataTypeName = keyof typeof CUSTOM_FIELD_DATA_TYPES;
export type CustomFieldDataTypeId = (typeof CUSTOM_FIELD_DATA_TYPES)[CustomFieldDataTypeName];

const NAMES_BY_ID = new Map<number, CustomFieldDataTypeName>(
  Object.entries(CUSTOM_FIELD_DATA_TYPES).map(([name, id]) => [id, name as CustomFieldDataTypeName]),
);

/** The name of a data type id, or null for an unknown id. */
export function customFieldDataTypeName(id: number): CustomFieldDataTypeName | null {
  return NAMES_BY_ID.get(id) ?? null;
}

/** "Dropdown types (Dropdown, DropdownWithFillIn, MultiChoice) keep their choices." */
export const DROPDOWN_DATA_TYPES: readonly number[] = [
  CUSTOM_FIELD_DATA_TYPES.Dropdown,
  CUSTOM_FIELD_DATA_TYPES.DropdownWithFillIn,
  CUSTOM_FIELD_DATA_TYPES.MultiChoice,
];

/** "Branch targets (GoTo) pointing earlier than the field's page are cleared for field types 6, 7 and 10." */
export const BRANCHING_DATA_TYPES: readonly number[] = [
  CUSTOM_FIELD_DATA_TYPES.Dropdown,
  CUSTOM_FIELD_DATA_TYPES.DropdownWithFillIn,
  CUSTOM_FIELD_DATA_TYPES.YesNo,
];

export const OTHER_CHOICE_NAME = 'Other';

/** A choice of a select-type custom field (spec 000 section 3: SelectListItems). */
export interface SelectListItem {
  /** 0 (or less) for a choice not yet saved. */
  Id: number;
  Name: string;
  /** The page a form jumps to when this choice is picked; null for none. */
  GoTo?: number | null;
  /** Set on the built-in Other choice: it cannot be edited or deleted. */
  DisableUpdate?: boolean | null;
  IsHidden?: boolean | null;
  isDeleted?: boolean | null;
}

export interface CustomFieldChoicesModel {
  CustomFieldDataTypeId: number;
  PageNumber?: number | null;
  SelectListItems: SelectListItem[];
}

const isLive = (item: SelectListItem) => !item.isDeleted;
const isBuiltInOther = (item: SelectListItem) =>
  item.Name === OTHER_CHOICE_NAME && Boolean(item.DisableUpdate);

/** Removes choices: a saved one is marked deleted so the server can retire it; an unsaved one is dropped. */
function removeChoices(
  items: readonly SelectListItem[],
  remove: (item: SelectListItem) => boolean,
): SelectListItem[] {
  return items.flatMap((item) => {
    if (!remove(item) || !isLive(item)) return [item];
    return item.Id > 0 ? [{ ...item, isDeleted: true }] : [];
  });
}

/** Makes sure a choice with `name` is live (reusing an existing one by name), with the given flags. */
function ensureChoice(
  items: SelectListItem[],
  name: string,
  flags: Partial<SelectListItem> = {},
): SelectListItem[] {
  const index = items.findIndex((item) => item.Name.trim().toLowerCase() === name.toLowerCase());
  const existing = items[index];
  if (existing) {
    const next = [...items];
    next[index] = { ...existing, ...flags, Name: name, isDeleted: false };
    return next;
  }
  return [
    ...items,
    { Id: 0, Name: name, GoTo: null, DisableUpdate: false, IsHidden: false, isDeleted: false, ...flags },
  ];
}

/** "Branch targets (GoTo) pointing earlier than the field's page are cleared for field types 6, 7 and 10." */
export function clearBackwardBranches<T extends CustomFieldChoicesModel>(field: T): T {
  const page = field.PageNumber;
  if (!BRANCHING_DATA_TYPES.includes(field.CustomFieldDataTypeId) || page === null || page === undefined)
    return field;
  return {
    ...field,
    SelectListItems: field.SelectListItems.map((item) =>
      item.GoTo !== null && item.GoTo !== undefined && item.GoTo < page ? { ...item, GoTo: null } : item,
    ),
  };
}

/**
 * "Custom field type change: dropdown types (Dropdown, DropdownWithFillIn, MultiChoice) keep their choices.
 * DropdownWithFillIn adds a hidden, undeletable choice named Other; other types remove it. YesNo resets the
 * choices to Yes and No. Any other type clears the choice list." (spec 000 section 4). Backward branches are then
 * cleared.
 */
export function changeCustomFieldType<T extends CustomFieldChoicesModel>(field: T, newTypeId: number): T {
  let items = [...field.SelectListItems];
  if (newTypeId === CUSTOM_FIELD_DATA_TYPES.DropdownWithFillIn) {
    items = ensureChoice(items, OTHER_CHOICE_NAME, { IsHidden: true, DisableUpdate: true });
  } else if (DROPDOWN_DATA_TYPES.includes(newTypeId)) {
    items = removeChoices(items, isBuiltInOther);
  } else if (newTypeId === CUSTOM_FIELD_DATA_TYPES.YesNo) {
    items = removeChoices(
      items,
      (item) => !['yes', 'no'].includes(item.Name.trim().toLowerCase()) || isBuiltInOther(item),
    );
    items = ensureChoice(items, 'Yes', { IsHidden: false, DisableUpdate: false });
    items = ensureChoice(items, 'No', { IsHidden: false, DisableUpdate: false });
  } else {
    items = removeChoices(items, () => true);
  }
  return clearBackwardBranches({ ...field, CustomFieldDataTypeId: newTypeId, SelectListItems: items });
}

/** True when a choice may be deleted by the user (the built-in Other may not). */
export function canDeleteChoice(item: SelectListItem): boolean {
  return !item.DisableUpdate;
}
