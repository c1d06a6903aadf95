import type { FieldType, Me, ResourceDeclaration } from '@guildhall/shared';
import { createContext, type ReactNode, useContext } from 'react';
import { can, flagOn } from '../identity.ts';
import {
  NAV_SECTION_LABELS,
  NAV_SECTIONS,
  type NavEntry,
  type NavSectionKey,
  type WebModule,
} from './web-module.ts';

const ModulesContext = createContext<readonly WebModule[] | null>(null);

/** The app hands the list of its modules to the generic screens and the shells through this provider. */
export function ModulesProvider({
  modules,
  children,
}: {
  modules: readonly WebModule[];
  children: ReactNode;
}) {
  return <ModulesContext.Provider value={modules}>{children}</ModulesContext.Provider>;
}

export function useModules(): readonly WebModule[] {
  const modules = useContext(ModulesContext);
  if (!modules) throw new Error('useModules needs a ModulesProvider above it (the app provides it).');
  return modules;
}

/**
 * The control a module gives a field type's input (`fieldPickers`: the image dialog for image fields), or null when
 * no module gives one or there is no provider (a field shown outside the app's shells).
 */
export function useFieldPicker(type: FieldType) {
  const modules = useContext(ModulesContext) ?? [];
  for (const m of modules) {
    const picker = m.fieldPickers?.[type];
    if (picker) return picker;
  }
  return null;
}

export interface NavSection {
  key: NavSectionKey;
  label: string | null;
  items: NavEntry[];
}

/** Every module's navigation entries by section, in the sections' order and, within one, by `order`. */
export function navSections(modules: readonly WebModule[]): NavSection[] {
  const entries = modules.flatMap((m) => m.nav ?? []);
  return NAV_SECTIONS.map((key) => ({
    key,
    label: NAV_SECTION_LABELS[key],
    items: entries
      .map((entry, index) => ({ entry, index }))
      .filter(({ entry }) => entry.section === key)
      .sort((a, b) => (a.entry.order ?? 50) - (b.entry.order ?? 50) || a.index - b.index)
      .map(({ entry }) => entry),
  }));
}

export function isNavItemVisible(me: Me, item: Pick<NavEntry, 'permission' | 'flag'>): boolean {
  if (item.permission && !can(me, item.permission)) return false;
  if (item.flag && !flagOn(me, item.flag)) return false;
  return true;
}

/** The navigation the user may see: sections without a visible entry disappear. */
export function visibleNav(me: Me, modules: readonly WebModule[]): NavSection[] {
  return navSections(modules)
    .map((section) => ({ ...section, items: section.items.filter((item) => isNavItemVisible(me, item)) }))
    .filter((section) => section.items.length > 0);
}

export function isActive(pathname: string, item: Pick<NavEntry, 'to' | 'end'>): boolean {
  if (item.end) return pathname === item.to || pathname === `${item.to}/`;
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}

/** The slots the modules fill on a resource's record (MainEntityParentPage), in the modules' order. */
export function recordSlotsOf(
  modules: readonly WebModule[],
  resource: string | Pick<ResourceDeclaration, 'name' | 'customFields'>,
) {
  const resourceName = typeof resource === 'string' ? resource : resource.name;
  const declaration = typeof resource === 'string' ? null : resource;
  return {
    actions: modules.flatMap((m) => {
      const Action = m.recordActions?.[resourceName];
      return Action ? [{ key: m.name, Action }] : [];
    }),
    tabs: modules.flatMap((m) => [
      ...(m.recordTabs?.[resourceName] ?? []),
      ...(declaration ? (m.declaredRecordTabs ?? []).filter((t) => t.when(declaration)) : []),
    ]),
    /** By child resource name; the first module to draw a child's tab draws it. */
    childPanels: Object.fromEntries(
      modules.flatMap((m) => Object.entries(m.childPanels ?? {})).reverse(),
    ) as Record<string, NonNullable<WebModule['childPanels']>[string]>,
    asides: modules.flatMap((m) => {
      const Aside = m.recordAsides?.[resourceName];
      return Aside ? [{ key: m.name, Aside }] : [];
    }),
  };
}

/**
 * The module's claim on a resource's record slots, or null. Two modules claiming one resource is a mistake in the
 * modules list, named here rather than one silently winning.
 */
export function claimedRecordSlots(modules: readonly WebModule[], resourceName: string) {
  const claims = modules.flatMap((m) =>
    (m.recordSlots ?? [])
      .filter((c) => c.resource === resourceName)
      .map((c) => ({ module: m.name, claim: c })),
  );
  if (claims.length > 1)
    throw new Error(
      `The record slots of ${resourceName} are claimed by ${claims.map((c) => c.module).join(' and ')}: one module claims a resource's record.`,
    );
  return claims[0]?.claim ?? null;
}

/** The buttons the modules add to a resource's list header, in the modules' order. */
export function listActionsOf(modules: readonly WebModule[], resourceName: string) {
  return modules.flatMap((m) => {
    const action = m.listActions?.[resourceName];
    return action ? [{ key: m.name, ...action }] : [];
  });
}

/** The dashboard widgets of every module the user may see. */
export function visibleWidgets(me: Me, modules: readonly WebModule[]) {
  return modules.flatMap((m) => m.dashboardWidgets ?? []).filter((w) => isNavItemVisible(me, w));
}

/** The member area home's shortcuts of every module, in their declared order. */
export function memberShortcutsOf(modules: readonly WebModule[]) {
  return modules.flatMap((m) => m.memberShortcuts ?? []).sort((a, b) => a.order - b.order);
}
