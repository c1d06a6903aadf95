import { IconFileCertificate } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

/** The privacy-policy acceptance modal, after the terms. */
export { PrivacyGate } from './privacy-gate.tsx';
/** The gate that asks for the terms of use before the product (the app's signed-in part shows it). */
export { TermsGate } from './terms-gate.tsx';

export const termsModule: WebModule = {
  name: 'terms',
  backOffice: [
    page(
      'setup/terms',
      { stateName: 'Setup.TermsOfUse', title: 'Terms of use' },
      screen(
        () => import('./terms-page.tsx'),
        (m) => m.TermsPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'setup',
      to: '/a/setup/terms',
      label: 'Terms of use',
      icon: IconFileCertificate,
      permission: 'terms.manage',
      description: 'Publish the terms of use staff and members must accept.',
    },
  ],
};
