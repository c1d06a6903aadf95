/** Working as another user: the button on a user's record and the banner the shells show while it lasts. */
export { ImpersonateButton } from './impersonate-button.tsx';
export { ImpersonationBanner, useImpersonationBannerHeight } from './impersonation-banner.tsx';
