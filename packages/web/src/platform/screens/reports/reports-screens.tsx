import type { ReportCatalogueItem } from '@guildhall/shared';
import { ActionIcon, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ErrorBlock } from '../../error-block.tsx';
import { LoadingBlock, PageHeader } from '../../page.tsx';
import { openViewTemplate } from '../view-templates.tsx';
import { ReportView } from './report-view.tsx';
import { fetchCatalogue, setFavourite } from './reports-api.ts';

const CATALOGUE = ['reports', 'catalogue'] as const;

/** `/a/reports`: every report the user may run, favourites first. */
export function ReportCatalogue() {
  const queryClient = useQueryClient();
  const catalogue = useQuery({ queryKey: CATALOGUE, queryFn: fetchCatalogue });
  const toggle = async (report: ReportCatalogueItem) => {
    try {
      await setFavourite(report.ReportId, !report.IsFavorite);
      await queryClient.invalidateQueries({ queryKey: CATALOGUE });
    } catch {
      notifications.show({ color: 'red', title: 'Sorry', message: "We couldn't save it!" });
    }
  };
  return (
    <>
      <PageHeader
        title="Reports"
        description="Run a report on screen, page by page. Star the ones you use most."
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
              <Anchor component={Link} to={`/a/reports/${encodeURIComponent(r.ReportId)}`} fw={600}>
                {r.Title}
              </Anchor>
              <Tooltip label={r.IsFavorite ? 'Remove from favourites' : 'Add to favourites'}>
                <ActionIcon
                  variant="subtle"
                  color="yellow.8"
                  aria-pressed={r.IsFavorite}
                  aria-label={`Favourite ${r.Title}`}
                  onClick={() => void toggle(r)}
                >
                  {r.IsFavorite ? (
                    <IconStarFilled size={18} aria-hidden />
                  ) : (
                    <IconStar size={18} aria-hidden />
                  )}
                </ActionIcon>
              </Tooltip>
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              {r.Description}
            </Text>
            <Group mt="sm" gap="xs">
              <Button
                size="xs"
                variant="light"
                component={Link}
                to={`/a/reports/${encodeURIComponent(r.ReportId)}`}
              >
                Run
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => void openViewTemplate('Reporting', { ReportId: r.ReportId, Title: r.Title })}
              >
                Open in a popup
              </Button>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}

/** `/a/reports/:reportId` */
export function ReportScreen() {
  const { reportId = '' } = useParams();
  const catalogue = useQuery({ queryKey: CATALOGUE, queryFn: fetchCatalogue });
  const report = catalogue.data?.find((r) => r.ReportId === reportId);
  const title = report?.Title ?? 'Report';
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
      />
      <Stack>
        <ReportView key={reportId} reportId={reportId} title={title} />
      </Stack>
    </>
  );
}
