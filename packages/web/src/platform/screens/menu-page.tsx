import type { ExternalUrlDeclaration, ResourceDeclaration } from '@guildhall/shared';
import { NavLink, Select, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconExternalLink, IconList } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorBlock } from '../error-block.tsx';
import { can, useIdentity } from '../identity.ts';
import { PageHeader } from '../page.tsx';
import { ExternalPanel } from './external-page.tsx';
import { ListScreen } from './list-screen.tsx';
import { RESOURCES } from './resources.ts';
import { screenOptionsOf } from './screen-options.ts';

type Entry =
  | { key: string; label: string; kind: 'list'; resource: ResourceDeclaration }
  | { key: string; label: string; kind: 'external'; page: ExternalUrlDeclaration };

/** The entries of a menu: the lists of resources declaring `screen.menu.key`, then their external pages. */
export function menuEntries(menu: string, canRead: (r: ResourceDeclaration) => boolean): Entry[] {
  const members = RESOURCES.filter(
    (r) => screenOptionsOf(r).menu?.key === menu && !r.singleRecord && !r.fixture && canRead(r),
  )
    .map((r) => ({ r, order: screenOptionsOf(r).menu?.order ?? 0 }))
    .sort((a, b) => a.order - b.order || a.r.title.localeCompare(b.r.title))
    .map(({ r }) => r);
  return [
    ...members.map((r): Entry => ({ key: r.name, label: r.title, kind: 'list', resource: r })),
    ...members.flatMap((r) =>
      (screenOptionsOf(r).externalUrls ?? []).map(
        (page): Entry => ({ key: `external-${page.key}`, label: page.title, kind: 'external', page }),
      ),
    ),
  ];
}

/**
 * `/micronet/menu/:menu/:child?`: MenuPageWithChildView. A menu of child screens on the left (a select on a
 * narrow screen) and the chosen child on the right: a resource's list screen or an external page.
 */
export function MenuPageRoute() {
  const { menu = '', child } = useParams();
  const me = useIdentity();
  const navigate = useNavigate();
  const wide = useMediaQuery('(min-width: 768px)', true);
  const entries = menuEntries(menu, (r) => can(me, r.permissions.read));
  const title = RESOURCES.map((r) => screenOptionsOf(r).menu).find((m) => m?.key === menu)?.title ?? 'Menu';
  const current = entries.find((e) => e.key === child) ?? entries[0];
  if (!current)
    return (
      <>
        <PageHeader title={title} />
        <ErrorBlock message="There is no screen at this address." isKnown />
      </>
    );
  const to = (e: Entry) => `/micronet/menu/${encodeURIComponent(menu)}/${encodeURIComponent(e.key)}`;
  const nav = wide ? (
    <nav aria-label={`${title} menu`}>
      <Stack gap={2}>
        {entries.map((e) => (
          <NavLink
            key={e.key}
            component={Link}
            to={to(e)}
            label={e.label}
            active={e.key === current.key}
            aria-current={e.key === current.key ? 'page' : undefined}
            leftSection={
              e.kind === 'list' ? (
                <IconList size={16} aria-hidden />
              ) : (
                <IconExternalLink size={16} aria-hidden />
              )
            }
          />
        ))}
      </Stack>
    </nav>
  ) : (
    <Select
      label={`${title} menu`}
      data={entries.map((e) => ({ value: e.key, label: e.label }))}
      value={current.key}
      allowDeselect={false}
      onChange={(v) => {
        const e = entries.find((x) => x.key === v);
        if (e) navigate(to(e));
      }}
      mb="md"
    />
  );
  return (
    <div
      data-menu-page={menu}
      style={{
        display: 'grid',
        gridTemplateColumns: wide ? '220px minmax(0, 1fr)' : 'minmax(0, 1fr)',
        gap: 24,
      }}
    >
      <div>
        {wide ? <PageHeader title={title} /> : null}
        {nav}
      </div>
      <div>
        {current.kind === 'list' ? (
          <ListScreen key={current.resource.name} resource={current.resource} />
        ) : (
          <>
            <PageHeader title={current.label} />
            <ExternalPanel page={current.page} />
          </>
        )}
      </div>
    </div>
  );
}
