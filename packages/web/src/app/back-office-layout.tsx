import { NAV_COLLAPSE_BELOW_PX } from '@guildhall/shared';
import { AppShell, Burger, Group, NavLink, ScrollArea, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { HeaderLogo } from '../features/files/index.ts';
import { ImpersonationBanner, useImpersonationBannerHeight } from '../features/impersonation/index.ts';
import { HeaderSearch } from '../features/search/index.ts';
import { Brand } from '../platform/brand.tsx';
import { HelpButton } from '../platform/help-panel.tsx';
import { useIdentity } from '../platform/identity.ts';
import { isActive, useModules, visibleNav } from '../platform/modules/modules-context.tsx';
import { StatusBanner, StatusBannerProvider, StatusIndicator } from '../platform/status-banner.tsx';
import { TrialBanner } from '../platform/trial-banner.tsx';
import { HEADER_HEIGHT, SkipLink, UserMenu } from './shell-parts.tsx';

/**
 * AppShell's mobile rules use `max-width: breakpoint`, its desktop rules `min-width: breakpoint`. Putting
 * the breakpoint a tenth of a pixel under 768 makes 767 px collapsed and 768 px expanded, matching the
 * burger, which Mantine hides from `sm` (48em = 768 px) up (spec 000 section 9).
 */
const NAVBAR_BREAKPOINT = NAV_COLLAPSE_BELOW_PX - 0.1;

/** The back-office layout: header, navigation that collapses behind a burger below 768 px, main. */
export function BackOfficeLayout() {
  const me = useIdentity();
  const modules = useModules();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const bannerHeight = useImpersonationBannerHeight(!!me.impersonation);

  // Choosing an entry on a phone closes the navigation again.
  useEffect(() => {
    if (pathname) close();
  }, [pathname, close]);

  if (me.area !== 'backoffice') return <Navigate to="/m" replace />;

  const impersonating = !!me.impersonation;
  const headerHeight = HEADER_HEIGHT + bannerHeight;
  const sections = visibleNav(me, modules);

  return (
    <StatusBannerProvider>
      <SkipLink />
      <AppShell
        header={{ height: headerHeight }}
        navbar={{ width: 248, breakpoint: NAVBAR_BREAKPOINT, collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          {impersonating ? <ImpersonationBanner height={bannerHeight} /> : null}
          <Group h={HEADER_HEIGHT} px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label="Toggle navigation"
                aria-controls="main-navigation"
                aria-expanded={opened}
              />
              <Link to="/a" style={{ color: 'inherit', textDecoration: 'none', minWidth: 0 }}>
                <Brand name={me.tenant.name} />
                <VisuallyHidden>, home</VisuallyHidden>
              </Link>
              <Suspense fallback={null}>
                <HeaderLogo name={me.tenant.name} />
              </Suspense>
            </Group>
            <HeaderSearch area="backoffice" />
            <Group gap={4} wrap="nowrap">
              <StatusIndicator />
              <HelpButton />
              <UserMenu passwordPath="/a/account/password" timeZonePath="/a/account/time-zone" />
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar
          id="main-navigation"
          aria-label="Main navigation"
          p="xs"
          className="app-navbar"
          data-collapsed={opened ? 'false' : 'true'}
        >
          <AppShell.Section grow component={ScrollArea}>
            <Stack gap="md">
              {sections.map((section) => (
                <div key={section.key}>
                  {section.label ? (
                    <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={4} component="h2">
                      {section.label}
                    </Text>
                  ) : null}
                  <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                    {section.items.map((item) => {
                      const active = isActive(pathname, item);
                      const Icon = item.icon;
                      return (
                        <li key={item.to}>
                          <NavLink
                            component={Link}
                            to={item.to}
                            label={item.label}
                            active={active}
                            aria-current={active ? 'page' : undefined}
                            leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
                            variant="light"
                          />
                        </li>
                      );
                    })}
                  </ul>
                </div>
              ))}
            </Stack>
          </AppShell.Section>
        </AppShell.Navbar>

        <AppShell.Main id="main-content" tabIndex={-1}>
          <TrialBanner />
          <StatusBanner />
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </StatusBannerProvider>
  );
}
