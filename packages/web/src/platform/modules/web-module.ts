import type { FeatureFlagKey, FieldType, Model, Permission, ResourceDeclaration } from '@guildhall/shared';
import type { IconProps } from '@tabler/icons-react';
import type { ComponentType, LazyExoticComponent } from 'react';
import type { RouteObject } from 'react-router';
import type { FieldInputProps } from '../fields/field-types.ts';
import type { RecordSlotsClaim } from '../screens/record-slots.tsx';

/** The sections of the back-office navigation, in the order they show. */
export const NAV_SECTIONS = ['top', 'people', 'communications', 'setup'] as const;
export type NavSectionKey = (typeof NAV_SECTIONS)[number];

export const NAV_SECTION_LABELS: Record<NavSectionKey, string | null> = {
  top: null,
  people: 'People',
  communications: 'Communications',
  setup: 'Setup',
};

/** One entry of the back-office navigation, also a shortcut on the home screen. */
export interface NavEntry {
  section: NavSectionKey;
  to: string;
  label: string;
  icon: ComponentType<IconProps>;
  /** The home screen's shortcut text. */
  description?: string;
  /** Only users with this permission see the entry. */
  permission?: Permission;
  /** Only users with this feature flag on see the entry (spec 000 section 1: flags gate features per user). */
  flag?: FeatureFlagKey;
  /** Active only on the exact path (home). */
  end?: boolean;
  /** Place within its section (lower first; entries without one keep the modules' order after them). */
  order?: number;
}

/** A shortcut of the member area's home screen (the member area has no side navigation). */
export interface MemberShortcut {
  to: string;
  title: string;
  description: string;
  /** The button's text. */
  action: string;
  icon: ComponentType<IconProps>;
  /** Place on the home screen (lower first). */
  order: number;
  /**
   * What the member has there now, in a line on the card (what they owe, their next event, their term): loaded on
   * its own (lazy), drawing nothing until it has something to say.
   */
  Summary?: ComponentType;
}

/** What a record action (a button in a record's header, for example Merge) is given. */
export interface RecordActionProps {
  resource: ResourceDeclaration;
  recordId: string;
  record: Model;
}

/** What a list action (a button in a list's header, for example Create invoices from file) is given. */
export interface ListActionProps {
  resource: ResourceDeclaration;
  /** Call after the action changed records, so the list shows them. */
  onChanged: () => void;
}

type Lazy<P> = LazyExoticComponent<ComponentType<P>>;

/** A tab a feature adds to another resource's record (MainEntityParentPage), after the declared child lists. */
export interface RecordTab {
  key: string;
  title: string;
  Panel: Lazy<RecordActionProps>;
}

/** A widget of the home dashboard, shown to users with its permission (and flag). */
export interface DashboardWidget {
  /** Unique across modules: it keys the user's saved layout. */
  key: string;
  title: string;
  permission: Permission;
  flag?: FeatureFlagKey;
  /** Width (of 6 columns) and height (48 px rows) before the user moves it. */
  size: { w: number; h: number };
  Component: Lazy<Record<string, never>>;
}

/**
 * A web feature declares itself in one object, exported from its `index.ts`: the app assembles the list of
 * modules it is given (`app/modules.ts`) into the router, the shells' navigation, the home dashboard and the
 * generic screens' slots. A feature not in the list is simply absent.
 */
export interface WebModule {
  name: string;
  /** Screens under `/a` (the back-office shell). */
  backOffice?: RouteObject[];
  /** Screens under `/m` (the member area). */
  memberArea?: RouteObject[];
  /** Screens without a session (sign-in, recovery), in the public layout. */
  public?: RouteObject[];
  /** Screens under `/prompts` (security prompts after sign-in). */
  prompts?: RouteObject[];
  /** The layout element of `/prompts` (one module provides it). */
  promptLayout?: RouteObject['lazy'];
  nav?: NavEntry[];
  /** Shortcuts on the member area's home screen. */
  memberShortcuts?: MemberShortcut[];
  /** Buttons in a record's header, by resource name (MainEntityParentPage). */
  recordActions?: Record<string, Lazy<RecordActionProps>>;
  /**
   * The slots of this feature's own resources' records (decision 0188): toolbar, record actions, tabs, field
   * renderers, drawn at every address of the record. One module claims a resource; `claimRecordSlots` types them by
   * the resource's field names.
   */
  recordSlots?: RecordSlotsClaim[];
  /** Buttons in a list's header beside Add and Export, by resource name, for users with their permission. */
  listActions?: Record<string, { permission: Permission; Action: Lazy<ListActionProps> }>;
  /** Tabs of a record, by resource name (MainEntityParentPage): a contact's Files. */
  recordTabs?: Record<string, RecordTab[]>;
  /**
   * Tabs of the records of every resource whose declaration asks for them (`when`): custom fields on each resource
   * that declares `customFields`, with no list of resource names to keep.
   */
  declaredRecordTabs?: (RecordTab & {
    when: (resource: Pick<ResourceDeclaration, 'customFields'>) => boolean;
  })[];
  /**
   * A declared child list's tab drawn by the feature instead of the generic list, by the child resource's name:
   * contacts show their links from both sides.
   */
  childPanels?: Record<string, Lazy<RecordActionProps>>;
  /** What shows beside a record's PreviewBox, by resource name: a contact's photo. */
  recordAsides?: Record<string, Lazy<RecordActionProps>>;
  dashboardWidgets?: DashboardWidget[];
  /**
   * The control inside a field type's input when what the field holds is this feature's (decision 0092): the files
   * feature's image dialog for `image` fields. The generic input draws the label and the error around it.
   */
  fieldPickers?: Partial<Record<FieldType, Lazy<FieldInputProps>>>;
}
