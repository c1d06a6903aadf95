import { IconForms } from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

/** The member's own custom fields, for their profile page (lazy: the modules list loads with the first page). */
export const MemberCustomFields = lazy(() => import('./member-custom-fields.tsx'));

/** The fields belonging to one record (an event's registration questions) with their editor. */
export const ScopedFields = lazy(() =>
  import('./custom-fields-page.tsx').then((m) => ({ default: m.FieldsOfEntity })),
);

/** The controls answering questions inside another form (a registration). */
export const QuestionInputs = lazy(() =>
  import('./custom-values-form.tsx').then((m) => ({ default: m.QuestionInputs })),
);

/**
 * Custom fields (decision 0111): Setup › Custom fields, and a "Custom fields" tab on the record of every resource
 * whose declaration says `customFields` (contacts now; memberships and events by the same line).
 */
export const customFieldsModule: WebModule = {
  name: 'custom-fields',
  backOffice: [
    page(
      'setup/custom-fields',
      { stateName: 'Setup.CustomFields', title: 'Custom fields' },
      screen(
        () => import('./custom-fields-page.tsx'),
        (m) => m.CustomFieldsPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'setup',
      to: '/a/setup/custom-fields',
      label: 'Custom fields',
      icon: IconForms,
      permission: 'settings.manage',
      description: 'Fields of your own on contacts and other records, in pages, with choices and branching.',
    },
  ],
  declaredRecordTabs: [
    {
      key: 'custom-fields',
      title: 'Custom fields',
      when: (resource) => resource.customFields !== undefined,
      Panel: lazy(() => import('./custom-fields-tab.tsx')),
    },
  ],
};
