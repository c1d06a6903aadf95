import { AppShell, Container, Group, VisuallyHidden } from '@mantine/core';
import { Link, Navigate, Outlet } from 'react-router';
import { ImpersonationBanner, useImpersonationBannerHeight } from '../features/impersonation/index.ts';
import { HeaderSearch } from '../features/search/index.ts';
import { Brand } from '../platform/brand.tsx';
import { HelpButton } from '../platform/help-panel.tsx';
import { useIdentity } from '../platform/identity.ts';
import { StatusBanner, StatusBannerProvider, StatusIndicator } from '../platform/status-banner.tsx';
import { HEADER_HEIGHT, SkipLink, UserMenu } from './shell-parts.tsx';

/** The member area: the association's name, the member's menu (profile, password, sign out), the page. */
export function MemberLayout() {
  const me = useIdentity();
  const bannerHeight = useImpersonationBannerHeight(!!me.impersonation);
  if (me.area === 'backoffice') return <Navigate to="/a" replace />;
  const impersonating = !!me.impersonation;
  return (
    <StatusBannerProvider>
      <SkipLink />
      <AppShell header={{ height: HEADER_HEIGHT + bannerHeight }} padding="md">
        <AppShell.Header>
          {impersonating ? <ImpersonationBanner height={bannerHeight} /> : null}
          <Container size="lg" h={HEADER_HEIGHT}>
            <Group h="100%" justify="space-between" wrap="nowrap">
              <Link to="/m" style={{ color: 'inherit', textDecoration: 'none', minWidth: 0 }}>
                <Brand name={me.tenant.name} />
                <VisuallyHidden>, home</VisuallyHidden>
              </Link>
              <HeaderSearch area="member" />
              <Group gap={4} wrap="nowrap">
                <StatusIndicator />
                <HelpButton />
                <UserMenu
                  passwordPath="/m/account/password"
                  timeZonePath="/m/account/time-zone"
                  profilePath="/m/profile"
                />
              </Group>
            </Group>
          </Container>
        </AppShell.Header>
        <AppShell.Main id="main-content" tabIndex={-1}>
          <Container size="lg" px={0}>
            <StatusBanner />
            <Outlet />
          </Container>
        </AppShell.Main>
      </AppShell>
    </StatusBannerProvider>
  );
}
