import type { ReportCatalogueEntry } from '@guildhall/shared';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
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
  IconPencil,
  IconPin,
  IconPinnedFilled,
  IconPlus,
  IconStar,
  IconStarFilled,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorBlock } from '../../error-block.tsx';
import { LoadingBlock, PageHeader } from '../../page.tsx';
import { resourceByName } from '../resources.ts';
import { openViewTemplate } from '../view-templates.tsx';
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
    pin: async (r: ReportCatalogueEntry) => {
      try {
        await setPinned(r.ReportId, !r.IsPinned);
        await refresh();
        await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
        notifications.show({
          color: 'green',
          title: r.IsPinned ? 'Taken off the dashboard' : 'Pinned to the dashboard',
          message: r.Title,
        });
      } catch {
        failed();
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
          On the dashboard
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
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadReportCsv(reportId, title);
    } catch {
      notifications.show({
        color: 'red',
        title: 'Oh no :(',
        message: 'There was an issue running the report!',
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
                onClick={() => void actions.pin(report)}
              >
                {report.IsPinned ? 'On the dashboard' : 'Pin to dashboard'}
              </Button>
              {report.Saved?.IsOwner ? (
                <>
                  <ScheduleButton savedId={report.Saved.SavedReportId} />
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
          <ReportSchedules savedId={report.Saved.SavedReportId} isOwner={report.Saved.IsOwner} />
        ) : null}
        <ReportView
          key={reportId}
          reportId={reportId}
          title={title}
          resource={report ? resourceByName(report.Resource) : null}
        />
      </Stack>
    </>
  );
}
