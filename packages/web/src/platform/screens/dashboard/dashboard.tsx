import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import {
  DASHBOARD_GRID,
  describeParameterValues,
  type ReportCatalogueEntry,
  type ResourceDeclaration,
  type UserWidgetSettings,
  type WidgetDeclaration,
} from '@guildhall/shared';
import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconGripVertical } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect, useMemo, useRef } from 'react';
import ReactGridLayout, { type Layout, type LayoutItem, useContainerWidth } from 'react-grid-layout';
import { Link } from 'react-router';
import { api } from '../../api-client.ts';
import { can, useIdentity } from '../../identity.ts';
import { useModules, visibleWidgets } from '../../modules/modules-context.tsx';
import type { DashboardWidget } from '../../modules/web-module.ts';
import { LoadingBlock, PageHeader } from '../../page.tsx';
import { rowLabel } from '../list-cell.tsx';
import { measureText, ReportChart } from '../reports/report-grouped.tsx';
import { useParameterNames, useReportResource } from '../reports/report-parameters.tsx';
import { CATALOGUE_KEY, fetchCatalogue, INITIAL_REPORT_STATE, runReport } from '../reports/reports-api.ts';
import { listPath, RESOURCES, recordPath } from '../resources.ts';
import { screenOptionsOf } from '../screen-options.ts';
import { fetchList } from '../screens-api.ts';

export const DASHBOARD_SCREEN = 'Dashboard';

/** A report pinned to the dashboard is a widget keyed by its ReportId. */
const pinnedId = (reportId: string) => `r:${reportId}`;

/** A Widget screen: a count or a short list a resource declares (`screen.widgets`), shown to those who may read it. */
interface DeclaredWidget {
  id: string;
  resource: ResourceDeclaration;
  widget: WidgetDeclaration;
}

function declaredWidgets(canRead: (r: ResourceDeclaration) => boolean): DeclaredWidget[] {
  return RESOURCES.filter((r) => !r.fixture && canRead(r)).flatMap((resource) =>
    (screenOptionsOf(resource).widgets ?? []).map((widget) => ({ id: `w:${widget.key}`, resource, widget })),
  );
}

/**
 * The modules' widgets first, in the modules' order, then the resources' declared ones (two columns wide), each
 * row filled left to right on the 6-column grid.
 */
export function defaultLayout(
  widgets: readonly Pick<DashboardWidget, 'key' | 'size'>[],
  declared: readonly DeclaredWidget[],
  pinned: readonly (Pick<ReportCatalogueEntry, 'ReportId' | 'Chart' | 'Grouped'> & {
    Pin?: ReportCatalogueEntry['Pin'];
  })[] = [],
): LayoutItem[] {
  const sized = [
    ...widgets.map((w) => ({ i: w.key, ...w.size })),
    ...declared.map((d) => ({ i: d.id, w: 2, h: d.widget.kind === 'count' ? 3 : 5 })),
    ...pinned.map((r) =>
      r.Pin?.Display === 'figure'
        ? { i: pinnedId(r.ReportId), w: 2, h: 3 }
        : {
            i: pinnedId(r.ReportId),
            w: r.Chart ? 3 : 2,
            h: r.Chart ? 7 : r.Grouped ? 5 : 3,
          },
    ),
  ];
  const out: LayoutItem[] = [];
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const item of sized) {
    const w = Math.min(item.w, DASHBOARD_GRID.columns);
    if (x + w > DASHBOARD_GRID.columns) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    out.push({ i: item.i, x, y, w, h: item.h });
    x += w;
    rowHeight = Math.max(rowHeight, item.h);
  }
  return out;
}

function stacked(items: readonly LayoutItem[]): LayoutItem[] {
  let y = 0;
  return [...items]
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((item) => {
      const placed = { ...item, x: 0, y, w: 1, static: true };
      y += item.h;
      return placed;
    });
}

const pick = (l: readonly LayoutItem[]) => l.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));

function savedLayout(settings: UserWidgetSettings | undefined, defaults: LayoutItem[]): LayoutItem[] {
  const raw = settings?.Settings.layout;
  if (!Array.isArray(raw)) return defaults;
  const known = new Map(defaults.map((d) => [d.i, d]));
  const items = (raw as LayoutItem[]).filter((item) => known.has(item.i));
  for (const d of defaults) if (!items.some((i) => i.i === d.i)) items.push(d);
  return pick(items);
}

/** `/a/dashboard`: the dashboard on a page of its own. */
export function DashboardPage() {
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Drag a widget by its handle, or resize it from its corner; your layout is kept."
      />
      <DashboardGrid />
    </>
  );
}

/** Widgets on a 6-column grid (at most 100 rows, one column below 600 px), laid out per user. */
export function DashboardGrid() {
  const me = useIdentity();
  const modules = useModules();
  const widgets = useMemo(() => visibleWidgets(me, modules), [me, modules]);
  const declared = useMemo(() => declaredWidgets((r) => can(me, r.permissions.read)), [me]);
  const settings = useQuery({
    queryKey: ['widgetSettings', DASHBOARD_SCREEN],
    queryFn: () => api.get<UserWidgetSettings>(`/api/settings/UserWidgetSettings/${DASHBOARD_SCREEN}`),
  });
  // Reports the user pinned (decided before the layout, so a saved layout keeps their places).
  const catalogue = useQuery({ queryKey: CATALOGUE_KEY, queryFn: fetchCatalogue });
  const pinned = useMemo(() => (catalogue.data ?? []).filter((r) => r.IsPinned), [catalogue.data]);
  const { width, containerRef, mounted } = useContainerWidth();
  const narrow = width < DASHBOARD_GRID.mobileBreakpointPx;
  const initial = useMemo(
    () => savedLayout(settings.data, defaultLayout(widgets, declared, pinned)),
    [settings.data, widgets, declared, pinned],
  );
  const last = useRef<string>('');
  useEffect(() => {
    last.current = JSON.stringify(initial);
  }, [initial]);

  // One column on a phone: the widgets in reading order, each keeping its height.
  const layout: LayoutItem[] = narrow ? stacked(initial) : initial;

  const onLayoutChange = (next: Layout) => {
    if (narrow) return;
    const value = JSON.stringify(pick(next));
    if (value === last.current) return;
    last.current = value;
    void api
      .post('/api/settings/UserWidgetSettings', {
        ScreenName: DASHBOARD_SCREEN,
        Settings: { layout: pick(next) },
      })
      .catch(() => undefined);
  };

  return (
    <div ref={containerRef}>
      {settings.isPending || catalogue.isPending ? <LoadingBlock /> : null}
      {mounted && !settings.isPending && !catalogue.isPending ? (
        <ReactGridLayout
          key={narrow ? 'narrow' : 'wide'}
          width={width}
          layout={layout}
          gridConfig={{
            cols: narrow ? 1 : DASHBOARD_GRID.columns,
            rowHeight: 48,
            maxRows: DASHBOARD_GRID.maxRows,
          }}
          dragConfig={{ enabled: !narrow, handle: '.gh-widget-handle' }}
          resizeConfig={{ enabled: !narrow }}
          onLayoutChange={onLayoutChange}
        >
          {widgets.map(({ key, title, Component }) => (
            <div key={key} data-widget={key}>
              <Widget title={title}>
                <Suspense fallback={<LoadingBlock />}>
                  <Component />
                </Suspense>
              </Widget>
            </div>
          ))}
          {declared.map((d) => (
            <div key={d.id} data-widget={d.id}>
              <Widget title={d.widget.title}>
                <ResourceWidget resource={d.resource} widget={d.widget} />
              </Widget>
            </div>
          ))}
          {pinned.map((r) => (
            <div key={pinnedId(r.ReportId)} data-widget={pinnedId(r.ReportId)}>
              <Widget title={r.Title}>
                <Suspense fallback={<LoadingBlock />}>
                  <PinnedReport report={r} />
                </Suspense>
              </Widget>
            </div>
          ))}
        </ReactGridLayout>
      ) : null}
    </div>
  );
}

/** A declared widget: the resource's count (with its named filter) or its first rows, linked to the list. */
function ResourceWidget({ resource, widget }: { resource: ResourceDeclaration; widget: WidgetDeclaration }) {
  const answer = useQuery({
    queryKey: ['dashboard', 'widget', widget.key],
    queryFn: () =>
      fetchList(resource, {
        ...base,
        top: widget.kind === 'count' ? 1 : (widget.rows ?? 5),
        filterId: widget.filterId ?? 0,
        sort: widget.sort ? { columnName: widget.sort.field, direction: widget.sort.direction } : null,
      }),
  });
  if (answer.error)
    return (
      <Text size="sm" c="red">
        This widget could not be loaded.
      </Text>
    );
  if (!answer.data) return <LoadingBlock />;
  if (widget.kind === 'count')
    return (
      <Stack gap={0}>
        <Text fz={28} fw={700} lh={1.1} data-widget-count>
          {answer.data.TotalRecordAvailable}
        </Text>
        <Anchor component={Link} to={listPath(resource)} size="sm">
          {resource.title}
        </Anchor>
      </Stack>
    );
  return (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {answer.data.Results.map((row) => (
        <li key={String(row[resource.key])}>
          <Anchor component={Link} to={recordPath(resource, String(row[resource.key]))} size="sm">
            {rowLabel(resource, row)}
          </Anchor>
        </li>
      ))}
      {answer.data.Results.length === 0 ? (
        <Text component="li" size="sm" c="dimmed">
          Nothing yet.
        </Text>
      ) : null}
    </Stack>
  );
}

/** A pinned report: its chart, else its groups' counts, else its number of records; linked to the report. */
function PinnedReport({ report }: { report: ReportCatalogueEntry }) {
  const parameters = report.Pin?.Parameters ?? {};
  const answer = useQuery({
    queryKey: ['dashboard', 'report', report.ReportId, parameters],
    queryFn: () => runReport(report.ReportId, INITIAL_REPORT_STATE, parameters),
  });
  // The list with the association's own fields, and the names of the records lookup parameters hold.
  const resource = useReportResource(report.Resource);
  const names = useParameterNames(report.Parameters, resource, parameters);
  const kept = resource ? describeParameterValues(report.Parameters, resource.fields, parameters, names) : '';
  const link = (
    <Anchor component={Link} to={`/a/reports/${encodeURIComponent(report.ReportId)}`} size="sm">
      Open the report
    </Anchor>
  );
  if (answer.error)
    return (
      <Text size="sm" c="red">
        This widget could not be loaded.
      </Text>
    );
  if (!answer.data) return <LoadingBlock />;
  const grouping = answer.data.data.Grouping;
  const keptLine = kept ? (
    <Text size="xs" c="dimmed">
      {kept}
    </Text>
  ) : null;
  if (report.Pin?.Display === 'figure') {
    // One total: the grand total of a grouped report's measure, or an ungrouped report's number of records.
    const key = report.Pin.Measure ?? 'count';
    const measure = grouping?.Measures.find((m) => m.key === key);
    const total = grouping?.Rows.find((r) => r.Level === 0);
    const value = grouping
      ? measure && total
        ? measureText(measure, total.Values[key])
        : '—'
      : String(answer.data.data.TotalRecordAvailable);
    const title = measure?.title ?? report.Measures.find((m) => m.Key === key)?.Title ?? 'Records';
    return (
      <Stack gap={0}>
        <Text fz={28} fw={700} lh={1.1} data-widget-figure={key}>
          {value}
        </Text>
        <Text size="xs" c="dimmed">
          {title}
        </Text>
        {keptLine}
        {link}
      </Stack>
    );
  }
  if (grouping?.Chart)
    return (
      <Stack gap={4} data-report-chart={grouping.Chart.type}>
        <ReportChart result={grouping} height={220} />
        {keptLine}
        {link}
      </Stack>
    );
  if (grouping) {
    const measure = grouping.Measures.at(-1);
    return (
      <Stack gap={4}>
        <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {grouping.Rows.filter((r) => r.Level === 1)
            .slice(0, 8)
            .map((r) => (
              <Group key={r.Keys.map(String).join('|')} component="li" justify="space-between" gap="xs">
                <Text size="sm">{r.Labels[0]}</Text>
                <Text size="sm" fw={600}>
                  {measure ? measureText(measure, r.Values[measure.key]) : ''}
                </Text>
              </Group>
            ))}
        </Stack>
        {link}
      </Stack>
    );
  }
  return (
    <Stack gap={0}>
      <Text fz={28} fw={700} lh={1.1} data-widget-count>
        {answer.data.data.TotalRecordAvailable}
      </Text>
      {link}
    </Stack>
  );
}

function Widget({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper
      withBorder
      h="100%"
      p="sm"
      component="section"
      aria-label={title}
      style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
    >
      <Group gap={6} mb="xs" wrap="nowrap" className="gh-widget-handle" style={{ cursor: 'move' }}>
        <IconGripVertical size={16} aria-hidden style={{ color: 'var(--mantine-color-dimmed)' }} />
        <Title order={2} size="h5">
          {title}
        </Title>
      </Group>
      <div style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>{children}</div>
    </Paper>
  );
}

const base = { skip: 0, top: 1, sort: null, search: '', filterId: 0, criteria: [] };
