import { describeParameterValues, type ReportCatalogueEntry } from '@guildhall/shared';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  IconChartBar,
  IconChartLine,
  IconChartPie,
  IconDownload,
  IconNumber,
  IconPencil,
  IconPin,
  IconPinnedFilled,
  IconPlayerPlay,
  IconPlus,
  IconStar,
  IconStarFilled,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorBlock } from '../../error-block.tsx';
import { LoadingBlock, PageHeader } from '../../page.tsx';
import { openViewTemplate } from '../view-templates.tsx';
import {
  parametersReady,
  ReportParameterFields,
  useParameterNames,
  useReportResource,
} from './report-parameters.tsx';
import { ReportSchedules, ScheduleButton } from './report-schedules.tsx';
import { ReportView } from './report-view.tsx';
import {
  CATALOGUE_KEY,
  deleteSavedReport,
  downloadReportCsv,
  fetchCatalogue,
  setFavourite,
  setPinned,
} from './reports-api.ts';

const CHART_ICONS = { bar: IconChartBar, line: IconChartLine, pie: IconChartPie } as const;

const reportPath = (r: Pick<ReportCatalogueEntry, 'ReportId'>) =>
  `/a/reports/${encodeURIComponent(r.ReportId)}`;

function useReportActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: CATALOGUE_KEY });
  const failed = () => notifications.show({ color: 'red', title: 'Sorry', message: "We couldn't save it!" });
  return {
    favourite: async (r: ReportCatalogueEntry) => {
      try {
        await setFavourite(r.ReportId, !r.IsFavorite);
        await refresh();
      } catch {
        failed();
      }
    },
    /** Pins the report (or one of its totals as a figure) with the values it runs with; pinned, takes it off. */
    pin: async (
      r: ReportCatalogueEntry,
      how: { parameters?: Record<string, unknown>; figure?: string; off?: boolean } = {},
    ) => {
      const off = how.off ?? (r.IsPinned && how.figure === undefined);
      try {
        await setPinned(
          r.ReportId,
          !off,
          how.figure !== undefined
            ? { Display: 'figure', Measure: how.figure, Parameters: how.parameters ?? {} }
            : { Display: 'report', Parameters: how.parameters ?? {} },
        );
        await refresh();
        await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
        notifications.show({
          color: 'green',
          title: off ? 'Taken off the dashboard' : 'Pinned to the dashboard',
          message: r.Title,
        });
      } catch (e) {
        const message = (e as { message?: string } | null)?.message;
        notifications.show({ color: 'red', title: 'Sorry', message: message ?? "We couldn't save it!" });
      }
    },
    remove: (r: ReportCatalogueEntry, after?: () => void) =>
      modals.openConfirmModal({
        title: `Delete ${r.Title}?`,
        children: <Text size="sm">The report is deleted for everyone it is shared with.</Text>,
        labels: { confirm: 'Delete', cancel: 'Cancel' },
        confirmProps: { color: 'red' },
        onConfirm: async () => {
          if (!r.Saved) return;
          try {
            await deleteSavedReport(r.Saved.SavedReportId);
            await refresh();
            after?.();
          } catch {
            notifications.show({ color: 'red', title: 'Sorry', message: "We couldn't delete it!" });
          }
        },
      }),
  };
}

function FavouriteButton({ r, onToggle }: { r: ReportCatalogueEntry; onToggle: () => void }) {
  return (
    <Tooltip label={r.IsFavorite ? 'Remove from favourites' : 'Add to favourites'}>
      <ActionIcon
        variant="subtle"
        color="yellow.8"
        aria-pressed={r.IsFavorite}
        aria-label={`Favourite ${r.Title}`}
        onClick={onToggle}
      >
        {r.IsFavorite ? <IconStarFilled size={18} aria-hidden /> : <IconStar size={18} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}

function ReportBadges({ r }: { r: ReportCatalogueEntry }) {
  const ChartIcon = r.Chart ? CHART_ICONS[r.Chart] : null;
  return (
    <Group gap={6} mt={6}>
      <Badge variant="light" color="gray">
        {r.ResourceTitle}
      </Badge>
      {r.Grouped ? (
        <Badge
          variant="light"
          color="guild"
          leftSection={ChartIcon ? <ChartIcon size={12} aria-hidden /> : null}
        >
          {r.Chart ? `Grouped, ${r.Chart} chart` : 'Grouped'}
        </Badge>
      ) : null}
      {r.Saved ? (
        <Badge variant="outline" color={r.Saved.IsShared ? 'teal' : 'gray'}>
          {r.Saved.IsShared ? 'Shared' : 'Private'}
          {r.Saved.IsOwner ? '' : ` · ${r.Saved.OwnerName}`}
        </Badge>
      ) : (
        <Badge variant="outline" color="gray">
          Shipped
        </Badge>
      )}
      {r.IsPinned ? (
        <Badge variant="light" color="orange" leftSection={<IconPinnedFilled size={12} aria-hidden />}>
          {r.Pin?.Display === 'figure' ? 'Figure on the dashboard' : 'On the dashboard'}
        </Badge>
      ) : null}
      {r.Parameters.length > 0 ? (
        <Badge variant="outline" color="grape">
          {r.Parameters.length === 1 ? '1 parameter' : `${r.Parameters.length} parameters`}
        </Badge>
      ) : null}
    </Group>
  );
}

/** `/a/reports`: every report the user may run (shipped, their own and those shared with them), favourites first. */
export function ReportCatalogue() {
  const catalogue = useQuery({ queryKey: CATALOGUE_KEY, queryFn: fetchCatalogue });
  const actions = useReportActions();
  return (
    <>
      <PageHeader
        title="Reports"
        description="Run a report on screen, export it, pin it to the dashboard. Build your own over any list, grouped with totals and a chart. Star the ones you use most."
        actions={
          <Button component={Link} to="/a/reports/new" leftSection={<IconPlus size={16} aria-hidden />}>
            New report
          </Button>
        }
      />
      {catalogue.error ? (
        <ErrorBlock error={catalogue.error} onRetry={() => void catalogue.refetch()} />
      ) : null}
      {catalogue.isPending ? <LoadingBlock /> : null}
      <SimpleGrid
        cols={{ base: 1, sm: 2 }}
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="Reports"
      >
        {(catalogue.data ?? []).map((r) => (
          <Card key={r.ReportId} withBorder component="li" data-report={r.ReportId}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Anchor component={Link} to={reportPath(r)} fw={600}>
                {r.Title}
              </Anchor>
              <FavouriteButton r={r} onToggle={() => void actions.favourite(r)} />
            </Group>
            <ReportBadges r={r} />
            <Text size="sm" c="dimmed" mt={6}>
              {r.Description}
            </Text>
            <Group mt="sm" gap="xs">
              <Button size="xs" variant="light" component={Link} to={reportPath(r)}>
                Run
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => void openViewTemplate('Reporting', { ReportId: r.ReportId, Title: r.Title })}
              >
                Open in a popup
              </Button>
              {r.Saved?.IsOwner ? (
                <Button size="xs" variant="subtle" component={Link} to={`${reportPath(r)}/edit`}>
                  Edit
                </Button>
              ) : null}
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}

/** `/a/reports/:reportId`: the report run on screen, with its CSV, its pin and, for its owner, edit and delete. */
export function ReportScreen() {
  const { reportId = '' } = useParams();
  const navigate = useNavigate();
  const catalogue = useQuery({ queryKey: CATALOGUE_KEY, queryFn: fetchCatalogue });
  const actions = useReportActions();
  const [exporting, setExporting] = useState(false);
  const report = catalogue.data?.find((r) => r.ReportId === reportId);
  const title = report?.Title ?? 'Report';
  const resource = useReportResource(report?.Resource);
  const parameters = report?.Parameters ?? [];
  // The values typed, and those the report last ran with (Run applies them); a pin's values to begin with.
  const [values, setValues] = useState<Record<string, unknown> | null>(null);
  const [applied, setApplied] = useState<Record<string, unknown> | null>(null);
  const initial = useMemo(() => report?.Pin?.Parameters ?? {}, [report?.Pin?.Parameters]);
  const shown = values ?? initial;
  const ran = applied ?? initial;
  const ready = parametersReady(parameters, ran);
  const names = useParameterNames(parameters, resource, ran);
  const ranText = resource ? describeParameterValues(parameters, resource.fields, ran, names) : '';
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadReportCsv(reportId, title, ran);
    } catch (e) {
      notifications.show({
        color: 'red',
        title: 'Oh no :(',
        message: (e as { message?: string } | null)?.message || 'There was an issue running the report!',
      });
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      <PageHeader
        title={title}
        description={report?.Description}
        above={
          <Anchor component={Link} to="/a/reports" size="sm">
            ← Reports
          </Anchor>
        }
        actions={
          report ? (
            <>
              <FavouriteButton r={report} onToggle={() => void actions.favourite(report)} />
              <Button
                variant="default"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={exporting}
                onClick={() => void exportCsv()}
              >
                Export CSV
              </Button>
              <Button
                variant={report.IsPinned ? 'light' : 'default'}
                leftSection={
                  report.IsPinned ? (
                    <IconPinnedFilled size={16} aria-hidden />
                  ) : (
                    <IconPin size={16} aria-hidden />
                  )
                }
                aria-pressed={report.IsPinned}
                disabled={!report.IsPinned && !ready}
                onClick={() => void actions.pin(report, { parameters: ran })}
              >
                {report.IsPinned ? 'On the dashboard' : 'Pin to dashboard'}
              </Button>
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button
                    variant="default"
                    leftSection={<IconNumber size={16} aria-hidden />}
                    disabled={!ready}
                  >
                    Pin a figure
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Label>Show one total on the dashboard</Menu.Label>
                  {(report.Grouped ? report.Measures : [{ Key: 'count', Title: 'Number of records' }]).map(
                    (m) => (
                      <Menu.Item
                        key={m.Key}
                        onClick={() => void actions.pin(report, { parameters: ran, figure: m.Key })}
                      >
                        {m.Title}
                      </Menu.Item>
                    ),
                  )}
                </Menu.Dropdown>
              </Menu>
              {report.Saved?.IsOwner ? (
                <>
                  <ScheduleButton
                    savedId={report.Saved.SavedReportId}
                    parameters={parameters}
                    resource={resource}
                    values={ran}
                  />
                  <Button
                    variant="default"
                    component={Link}
                    to={`${reportPath(report)}/edit`}
                    leftSection={<IconPencil size={16} aria-hidden />}
                  >
                    Edit
                  </Button>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={`Delete ${report.Title}`}
                    onClick={() => actions.remove(report, () => void navigate('/a/reports'))}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </>
              ) : null}
            </>
          ) : null
        }
      />
      {report ? <ReportBadges r={report} /> : null}
      <Stack mt="md">
        {report?.Saved ? (
          <ReportSchedules
            savedId={report.Saved.SavedReportId}
            isOwner={report.Saved.IsOwner}
            parameters={parameters}
            resource={resource}
          />
        ) : null}
        {parameters.length > 0 ? (
          <Paper withBorder p="sm">
            <form
              onSubmit={(e) => {
                e.preventDefault();
                setApplied(shown);
              }}
            >
              <Group align="flex-end" gap="sm">
                <ReportParameterFields
                  parameters={parameters}
                  resource={resource}
                  values={shown}
                  onChange={setValues}
                />
                <Button type="submit" leftSection={<IconPlayerPlay size={16} aria-hidden />}>
                  Run
                </Button>
              </Group>
            </form>
            <Text size="sm" c="dimmed" mt="xs" aria-live="polite" data-testid="report-parameters-applied">
              {ranText ? `Run with ${ranText}` : 'Run with no parameter set'}
            </Text>
          </Paper>
        ) : null}
        {report && !ready ? (
          <Text c="dimmed">Fill in the required parameters, then Run.</Text>
        ) : report || catalogue.isPending ? (
          report ? (
            <ReportView
              key={`${reportId} ${JSON.stringify(ran)}`}
              reportId={reportId}
              title={title}
              resource={resource}
              parameters={ran}
            />
          ) : null
        ) : (
          <ReportView key={reportId} reportId={reportId} title={title} resource={null} />
        )}
      </Stack>
    </>
  );
}
