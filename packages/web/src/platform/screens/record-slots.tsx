import type { Me, Model, ResourceDeclaration } from '@guildhall/shared';
import { type ComponentType, createContext, type ReactNode, useContext } from 'react';

/** What a record action (of a list's row or of a record's header) is given. */
export interface RecordActionContext {
  row: Model;
  /** The record's key, as text. */
  id: string;
  /** The record's name as the screen shows it (for labels: "Deactivate Ada Byron"). */
  label: string;
  /** Call after the action changed the record, so the screen reloads it. */
  onChanged: () => void;
}

/**
 * An action a feature adds to a resource's records, beside the resource's declared row actions. The generic
 * screen draws it: inline while the record has at most two actions, otherwise the first action stays inline and
 * the others go into the record's Actions menu. An action either runs (`run`: a command, asking first if it must)
 * or opens a dialog the screen keeps open while the menu closes (`Dialog`).
 */
export interface RecordAction {
  key: string;
  /** The button's text, possibly by the record ("Deactivate" or "Reactivate"). */
  title: string | ((row: Model) => string);
  /** Whether the record offers it (permissions, state); always otherwise. */
  visible?: (row: Model) => boolean;
  /** Drawn in red (a destructive action). */
  danger?: boolean | ((row: Model) => boolean);
  run?: (context: RecordActionContext) => unknown;
  Dialog?: ComponentType<RecordActionContext & { onClose: () => void }>;
}

/** What a record slot component (a tab's panel, the toolbar, the aside) is given. */
export type RecordSlotProps = RecordActionContext;

/** What a field renderer of a record is given: the record and the value of its field. */
export interface RecordFieldSlotProps {
  row: Model;
  value: unknown;
  onChanged: () => void;
}

/** A tab of the record after its Details and declared child lists. */
export interface RecordExtraTab {
  key: string;
  title: string;
  Panel: ComponentType<RecordSlotProps>;
}

/**
 * The typed slots a feature fills when it embeds the generic record (`<ParentPage resource recordId slots>`)
 * instead of writing its own page. `F` is the resource's field names, so a field renderer for a field the resource
 * does not declare is a compile error (as for the list's cells, decision 0183).
 */
export interface RecordSlots<F extends string = string> {
  /** The heading's text under the record's name (the resource's singular title otherwise). */
  description?: string;
  /** Buttons in the header before the record's actions, drawn as given (Impersonate). */
  toolbar?: ComponentType<RecordSlotProps>;
  /** Actions beside the resource's declared row actions, in the header's action bar. */
  recordActions?: RecordAction[];
  /** Tabs after the record's Details and child lists. */
  tabs?: RecordExtraTab[];
  /** A field's value drawn by the feature instead of the field type's display, by field name. */
  fields?: { [K in F]?: ComponentType<RecordFieldSlotProps> };
  /** Where "Back to …" leads (the feature's own list page), the generic list otherwise. */
  listPath?: string;
}

/** Ties a record's slots to its resource's field names: `recordSlots(usersResource, { fields: { … } })`. */
export function recordSlots<F extends string>(
  _resource: ResourceDeclaration<F>,
  slots: RecordSlots<F>,
): RecordSlots<F> {
  return slots;
}

/** A record's slots for the signed-in user (their permissions decide which actions the record offers). */
export type RecordSlotsFactory<F extends string = string> = (me: Me) => RecordSlots<F>;

/**
 * A module's claim on a resource's record (`WebModule.recordSlots`): every address that draws the resource's
 * record (the generic `/micronet/list/…/{id}` and the feature's own page) draws it with these slots. `load` brings
 * the slot components in only when a record of the resource opens.
 */
export interface RecordSlotsClaim {
  resource: string;
  load: () => Promise<RecordSlotsFactory>;
}

/**
 * Claims a resource's record slots in a module declaration, typed by the resource's field names:
 * `claimRecordSlots(usersResource, () => import('./user-record-slots.tsx').then((m) => m.userRecordSlots))`.
 */
export function claimRecordSlots<F extends string>(
  resource: ResourceDeclaration<F>,
  load: () => Promise<RecordSlotsFactory<F>>,
): RecordSlotsClaim {
  return { resource: resource.name, load: load as () => Promise<RecordSlotsFactory> };
}

/** The title of an action for a record. */
export function actionTitle(action: Pick<RecordAction, 'title'>, row: Model): string {
  return typeof action.title === 'function' ? action.title(row) : action.title;
}

/** The slot actions a record offers, in their order. */
export function visibleActions(actions: readonly RecordAction[] | undefined, row: Model): RecordAction[] {
  return (actions ?? []).filter((a) => a.visible?.(row) ?? true);
}

interface ActiveRecordSlots {
  fields: Partial<Record<string, ComponentType<RecordFieldSlotProps>>>;
  row: Model;
  onChanged: () => void;
}

const RecordSlotsContext = createContext<ActiveRecordSlots | null>(null);

/** Lets the record's cards (preview, details) draw the feature's field renderers without threading them through. */
export function RecordSlotsProvider({
  value,
  children,
}: {
  value: ActiveRecordSlots | null;
  children: ReactNode;
}) {
  return <RecordSlotsContext.Provider value={value}>{children}</RecordSlotsContext.Provider>;
}

export function useRecordSlots(): ActiveRecordSlots | null {
  return useContext(RecordSlotsContext);
}
