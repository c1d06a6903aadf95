import type { Model, ResourceDeclaration } from '@guildhall/shared';
import { type ComponentType, createContext, type ReactNode, useContext } from 'react';
import type { RecordAction } from './record-slots.tsx';

/** What a cell renderer of an embedded list is given: the row and the value of its field. */
export interface ListCellSlotProps {
  row: Model;
  value: unknown;
  /** Call after the cell changed the record, so the list reloads. */
  onChanged: () => void;
}

/** A tab beside the list: the list is the first tab (titled with the resource), these follow it. */
export interface ListExtraTab {
  key: string;
  title: string;
  /** Shown after the title, for example a count. */
  badge?: ReactNode;
  panel: ReactNode;
}

/**
 * The typed slots a feature fills when it embeds the generic list (`<ListScreen resource slots>`) instead of
 * copying it. `F` is the resource's field names, so a cell renderer for a field the resource does not declare is a
 * compile error (the same closed-union rule as the field input registry).
 */
export interface ListSlots<F extends string = string> {
  /** The page's heading text under the title. */
  description?: string;
  /** Extra buttons in the header, before Export. */
  toolbar?: ReactNode;
  /**
   * Actions of each row, after the resource's declared row actions (a list without declared ones gets an actions
   * column for them); more than two in all collapse into the row's Actions menu.
   */
  recordActions?: RecordAction[];
  /** Tabs after the list's own. */
  tabs?: ListExtraTab[];
  /** A field's cell drawn by the feature instead of the field type's display, by field name. */
  cells?: { [K in F]?: ComponentType<ListCellSlotProps> };
  /** Where a record opens when it is not the generic record screen (a path the specification names). */
  recordPath?: (id: string) => string;
}

/** Ties an embedded list's slots to its resource's field names: `listSlots(usersResource, { cells: { … } })`. */
export function listSlots<F extends string>(
  _resource: ResourceDeclaration<F>,
  slots: ListSlots<F>,
): ListSlots<F> {
  return slots;
}

interface ActiveSlots {
  slots: ListSlots;
  /** The resource's key field, to name a row's record. */
  keyField: string;
  onChanged: () => void;
}

const SlotsContext = createContext<ActiveSlots | null>(null);

/** Lets every view of the list (table, cards, plain, infinite) read the slots without threading them through. */
export function ListSlotsProvider({ value, children }: { value: ActiveSlots | null; children: ReactNode }) {
  return <SlotsContext.Provider value={value}>{children}</SlotsContext.Provider>;
}

export function useListSlots(): ActiveSlots | null {
  return useContext(SlotsContext);
}
