import {
  displayTimeZone,
  formatInstant,
  isInstantText,
  type ReportRunAnswer,
  type ResourceDeclaration,
} from '@guildhall/shared';
import { Group, Paper, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useState } from 'react';
import { ErrorBlock } from '../../error-block.tsx';
import { displayText } from '../../fields/field-display.tsx';
import { useIdentity } from '../../identity.ts';
import { LoadingBlock } from '../../page.tsx';
import { Pager } from '../../pager.tsx';
import { SortButton } from '../sort-button.tsx';
import { GroupedResult } from './report-grouped.tsx';
import { INITIAL_REPORT_STATE, type ReportState, runReport } from './reports-api.ts';

const NO_PARAMETERS: Record<string, unknown> = {};

export const REPORT_FAILURE = {
  title: 'Oh no :(',
  message: 'There was an issue running the report!',
} as const;

/**
 * ReportView: runs a report page by page, sorted by a column, keeping the state the server sends back; a grouped
 * report shows its chart and its grouped table instead.
 */
export function ReportView({
  reportId,
  title,
  resource,
  parameters = NO_PARAMETERS,
}: {
  reportId: string;
  title: string;
  /** The parameter values the report runs with. */
  parameters?: Record<string, unknown>;
  /** The resource the report reads: its fields show each value as its lists do (money, choices, dates). */
  resource?: ResourceDeclaration | null;
}) {
  const timeZone = displayTimeZone(useIdentity());
  const [state, setState] = useState<ReportState>(INITIAL_REPORT_STATE);
  const [data, setData] = useState<ReportRunAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const [loading, setLoading] = useState(false);

  const run = useCallback(
    async (next: ReportState) => {
      setLoading(true);
      try {
        const answer = await runReport(reportId, next, parameters);
        setData(answer.data);
        setState(answer.state);
        setFailed(false);
      } catch (e) {
        setFailed(true);
        // A parameter's value refused (400) says what is wrong; anything else is the report's failure.
        const status = (e as { status?: number } | null)?.status;
        const message = (e as { message?: string } | null)?.message;
        notifications.show({
          color: 'red',
          ...REPORT_FAILURE,
          ...(status === 400 && message ? { message } : {}),
        });
      } finally {
        setLoading(false);
      }
    },
    [reportId, parameters],
  );
  useEffect(() => {
    void run(INITIAL_REPORT_STATE);
  }, [run]);

  if (!data && failed)
    return <ErrorBlock message={REPORT_FAILURE.message} isKnown onRetry={() => void run(state)} />;
  if (!data) return <LoadingBlock label="Running the report" />;

  if (data.Grouping)
    return (
      <Stack gap="sm">
        <GroupedResult result={data.Grouping} title={title} />
        <Text size="sm" c="dimmed" aria-live="polite">
          {data.TotalRecordAvailable} records in {data.Grouping.Rows.filter((r) => r.Level === 1).length}{' '}
          groups
        </Text>
      </Stack>
    );

  const sortBy = (field: string) =>
    void run({
      ...state,
      reportCurrentPage: 1,
      reportOrderBy: field,
      reportDirection: state.reportOrderBy === field && state.reportDirection === 'asc' ? 'desc' : 'asc',
    });

  return (
    <Stack gap="sm">
      <Paper withBorder>
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label={title} aria-busy={loading} striped>
            <Table.Thead>
              <Table.Tr>
                {data.Columns.map((c) => {
                  const dir = state.reportOrderBy === c.field ? state.reportDirection : null;
                  return (
                    <Table.Th
                      key={c.field}
                      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
                    >
                      <SortButton title={c.title} direction={dir} onSort={() => sortBy(c.field)} />
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.Rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: report rows have no key of their own; a page is replaced whole
                <Table.Tr key={i}>
                  {data.Columns.map((c) => (
                    <Table.Td key={c.field}>
                      {resource?.fields[c.field]
                        ? displayText({
                            field: resource.fields[c.field] as NonNullable<
                              ResourceDeclaration['fields'][string]
                            >,
                            value: row[c.field],
                            context: { timeZone },
                          })
                        : formatCell(row[c.field], timeZone)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite">
          Page {state.reportCurrentPage} of {Math.max(1, state.reportPageCount)} · {data.TotalRecordAvailable}{' '}
          rows
        </Text>
        <Pager
          pages={state.reportPageCount}
          page={state.reportCurrentPage}
          onPage={(page) => void run({ ...state, reportCurrentPage: page })}
        />
      </Group>
    </Stack>
  );
}

function formatCell(value: unknown, timeZone: string): string {
  if (value === null || value === undefined) return '—';
  if (isInstantText(value)) return formatInstant(value, timeZone);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
