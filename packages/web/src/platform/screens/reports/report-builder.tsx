import {
  AGGREGATE_FUNCTIONS,
  type AggregateFunction,
  aggregatableFields,
  aggregateKey,
  aggregateTitle,
  type ChartType,
  type DateBucket,
  displayTimeZone,
  type FilterCriterion,
  groupableFields,
  isDateField,
  measuresOf,
  parameterFields,
  type ReportAggregate,
  type ReportDefinition,
  type ResourceDeclaration,
  reportDefinitionProblems,
  reportDefinitionSchema,
  savedReportNumber,
  withReportExtraFields,
} from '@guildhall/shared';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Grid,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconX } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api-client.ts';
import { ErrorBlock } from '../../error-block.tsx';
import { displayText } from '../../fields/field-display.tsx';
import { can, useIdentity } from '../../identity.ts';
import { LoadingBlock, PageHeader } from '../../page.tsx';
import { RESOURCES, resourceByName } from '../resources.ts';
import { GroupedResult } from './report-grouped.tsx';
import {
  CATALOGUE_KEY,
  fetchReportExtraFields,
  fetchSavedReport,
  previewReport,
  saveReport,
} from './reports-api.ts';

const AdvancedFilterDialog = lazy(() => import('../advanced-filter-dialog.tsx'));

const OPERATOR_WORDS: Record<FilterCriterion['Operator'], string> = {
  eq: 'is',
  ne: 'is not',
  contains: 'contains',
  startsWith: 'starts with',
  gt: 'is more than',
  ge: 'is at least',
  lt: 'is less than',
  le: 'is at most',
  between: 'is between',
  in: 'is one of',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
};
const BUCKET_LABELS: Record<DateBucket, string> = { value: 'Day', month: 'Month', year: 'Year' };
const CHART_CHOICES: { value: ChartType | 'none'; label: string }[] = [
  { value: 'none', label: 'No chart' },
  { value: 'bar', label: 'Bar' },
  { value: 'line', label: 'Line' },
  { value: 'pie', label: 'Pie' },
];

interface Draft {
  title: string;
  description: string;
  shared: boolean;
  definition: ReportDefinition;
}

function blankDefinition(resource: ResourceDeclaration): ReportDefinition {
  return reportDefinitionSchema.parse({
    resource: resource.name,
    columns: resource.columns.filter((c) => !c.defaultHide).map((c) => c.field),
  });
}

/** `/a/reports/new` and `/a/reports/:reportId/edit`: build a report over any list, preview it, save it. */
export function ReportBuilderRoute() {
  const { reportId } = useParams();
  const id = reportId ? savedReportNumber(reportId) : null;
  const saved = useQuery({
    queryKey: ['reports', 'saved', id],
    queryFn: () => fetchSavedReport(id as number),
    enabled: id !== null,
  });
  if (id !== null && saved.error)
    return <ErrorBlock error={saved.error} onRetry={() => void saved.refetch()} />;
  if (id !== null && !saved.data) return <LoadingBlock />;
  const initial: Draft | null = saved.data
    ? {
        title: saved.data.Title,
        description: saved.data.Description,
        shared: saved.data.IsShared,
        definition: saved.data.Definition,
      }
    : null;
  return <ReportBuilder key={id ?? 'new'} savedId={id} initial={initial} />;
}

function ReportBuilder({ savedId, initial }: { savedId: number | null; initial: Draft | null }) {
  const me = useIdentity();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const lists = useMemo(
    () =>
      RESOURCES.filter((r) => !r.fixture && !r.singleRecord && can(me, r.permissions.read)).sort((a, b) =>
        a.title.localeCompare(b.title),
      ),
    [me],
  );
  const first = resourceByName('contacts') ?? lists[0];
  const [draft, setDraft] = useState<Draft>(
    () =>
      initial ?? {
        title: '',
        description: '',
        shared: false,
        definition: first ? blankDefinition(first) : reportDefinitionSchema.parse({ resource: '' }),
      },
  );
  const [filtering, setFiltering] = useState(false);
  const [saving, setSaving] = useState(false);
  const [titleError, setTitleError] = useState<string | null>(null);
  const d = draft.definition;
  const declared = resourceByName(d.resource);
  // The association's own fields of the list (custom fields): columns, filters and sorts, never groups or totals.
  const extraFields = useQuery({
    queryKey: ['reports', 'extra-fields', d.resource],
    queryFn: () => fetchReportExtraFields(d.resource),
    enabled: Boolean(declared),
    staleTime: 60_000,
  });
  const resource = useMemo(
    () => (declared ? withReportExtraFields(declared, extraFields.data) : declared),
    [declared, extraFields.data],
  );
  const setDefinition = (patch: Partial<ReportDefinition>) =>
    setDraft((x) => ({ ...x, definition: { ...x.definition, ...patch } }));

  const label = (f: string) => resource?.fields[f]?.label ?? f;
  const groupable = declared ? groupableFields(declared) : [];
  const aggregatable = declared ? aggregatableFields(declared) : [];
  const totalOptions = aggregatable.flatMap((field) =>
    AGGREGATE_FUNCTIONS.filter((fn) => fn !== 'count').map((fn) => {
      const a: ReportAggregate = { fn, field };
      return { value: aggregateKey(a), label: resource ? aggregateTitle(resource, a) : aggregateKey(a) };
    }),
  );
  const measures = measuresOf(d);
  const problems = resource ? reportDefinitionProblems(resource, d) : ['Choose a list.'];
  const [debounced] = useDebouncedValue(d, 300);
  const preview = useQuery({
    queryKey: ['reports', 'preview', debounced],
    queryFn: () => previewReport(debounced),
    enabled: problems.length === 0,
    placeholderData: keepPreviousData,
    retry: false,
  });

  const setGroup = (level: number, field: string | null) => {
    const groupBy = [...d.groupBy];
    if (field === null) groupBy.splice(level);
    else groupBy[level] = { field, bucket: isDateField(resource?.fields[field]) ? 'month' : 'value' };
    const chart = groupBy.length === 0 ? null : (d.chart ?? { type: 'bar' as const, measure: 'count' });
    setDefinition({
      groupBy,
      chart,
      aggregates: groupBy.length === 0 ? [] : d.aggregates,
      groupOrder: groupBy.length === 0 ? null : d.groupOrder,
    });
  };
  const setBucket = (level: number, bucket: DateBucket) =>
    setDefinition({ groupBy: d.groupBy.map((g, i) => (i === level ? { ...g, bucket } : g)) });
  const setTotals = (keys: string[]) => {
    const aggregates = keys.map((k) => {
      const [fn, ...rest] = k.split('_');
      return { fn: fn as AggregateFunction, field: rest.join('_') };
    });
    const chart =
      d.chart && !measuresOf({ aggregates }).some((m) => aggregateKey(m) === d.chart?.measure)
        ? { ...d.chart, measure: 'count' }
        : d.chart;
    const kept = measuresOf({ aggregates }).some((m) => aggregateKey(m) === d.groupOrder?.measure);
    setDefinition({ aggregates, chart, groupOrder: kept ? d.groupOrder : null });
  };
  // Parameters may filter the association's own fields too (the server binds them as it binds declared ones).
  const parameterable = resource ? parameterFields(resource) : [];
  const setParameter = (index: number, patch: Partial<ReportDefinition['parameters'][number]>) =>
    setDefinition({ parameters: d.parameters.map((p, i) => (i === index ? { ...p, ...patch } : p)) });

  const save = async () => {
    if (draft.title.trim() === '') {
      setTitleError('Give the report a title.');
      return;
    }
    setSaving(true);
    try {
      const answer = await saveReport(
        { Title: draft.title, Description: draft.description, IsShared: draft.shared, Definition: d },
        savedId ?? undefined,
      );
      await queryClient.invalidateQueries({ queryKey: CATALOGUE_KEY });
      notifications.show({ color: 'green', title: 'We saved it!', message: answer.Title });
      void navigate(`/a/reports/${answer.ReportId}`);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Oh no :(',
        message: isApiError(error) ? error.message : 'Your report was not saved successfully!',
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageHeader
        title={savedId ? 'Edit report' : 'New report'}
        description="Pick a list, its columns and filters; group it, add totals and a chart. The preview follows every change."
        above={
          <Anchor component={Link} to="/a/reports" size="sm">
            ← Reports
          </Anchor>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="sm" component="form" aria-label="Report" onSubmit={(e) => e.preventDefault()}>
            <TextInput
              label="Title"
              required
              value={draft.title}
              error={titleError}
              onChange={(e) => {
                const title = e.currentTarget.value;
                setTitleError(null);
                setDraft((x) => ({ ...x, title }));
              }}
            />
            <Textarea
              label="Description"
              autosize
              minRows={1}
              value={draft.description}
              onChange={(e) => {
                const description = e.currentTarget.value;
                setDraft((x) => ({ ...x, description }));
              }}
            />
            <Select
              label="List"
              description="The records the report reads."
              data={lists.map((r) => ({ value: r.name, label: r.title }))}
              value={d.resource}
              allowDeselect={false}
              searchable
              onChange={(name) => {
                const r = name ? resourceByName(name) : null;
                if (r) setDraft((x) => ({ ...x, definition: blankDefinition(r) }));
              }}
            />
            {resource ? (
              <>
                <Title order={2} size="h5" mt="xs">
                  Rows
                </Title>
                <MultiSelect
                  label="Columns"
                  description={d.groupBy.length ? 'Shown when the report is not grouped.' : undefined}
                  data={Object.entries(resource.fields)
                    .filter(([name]) => name !== 'IsDeleted')
                    .map(([name, f]) => ({ value: name, label: f.label }))}
                  value={[...d.columns]}
                  searchable
                  onChange={(columns) => setDefinition({ columns })}
                />
                <Group gap="xs" align="flex-end" wrap="nowrap">
                  <Text size="sm" style={{ flex: 1 }} data-testid="report-filters">
                    {d.criteria.length === 0
                      ? 'Every record of the list.'
                      : d.criteria
                          .map((c) =>
                            `${label(c.PropertyName)} ${OPERATOR_WORDS[c.Operator]} ${displayValue(resource, c)}`.trim(),
                          )
                          .join('; ')}
                  </Text>
                  <Button variant="default" size="xs" onClick={() => setFiltering(true)}>
                    Filters…
                  </Button>
                </Group>
                <Group gap="xs" grow>
                  <Select
                    label="Sort by"
                    data={resource.sortable.map((f) => ({ value: f, label: label(f) }))}
                    value={d.sort?.field ?? resource.defaultSort.field}
                    allowDeselect={false}
                    onChange={(field) =>
                      field && setDefinition({ sort: { field, direction: d.sort?.direction ?? 'asc' } })
                    }
                  />
                  <Select
                    label="Direction"
                    data={[
                      { value: 'asc', label: 'Ascending' },
                      { value: 'desc', label: 'Descending' },
                    ]}
                    value={d.sort?.direction ?? resource.defaultSort.direction}
                    allowDeselect={false}
                    onChange={(dir) =>
                      setDefinition({
                        sort: {
                          field: d.sort?.field ?? resource.defaultSort.field,
                          direction: dir === 'desc' ? 'desc' : 'asc',
                        },
                      })
                    }
                  />
                </Group>
                <Title order={2} size="h5" mt="xs">
                  Grouping and totals
                </Title>
                {[0, 1].map((level) =>
                  level === 1 && d.groupBy.length === 0 ? null : (
                    <Group key={level} gap="xs" grow align="flex-end">
                      <Select
                        label={level === 0 ? 'Group by' : 'Then by'}
                        placeholder="No grouping"
                        clearable
                        data={groupable
                          .filter((f) => d.groupBy.findIndex((g) => g.field === f) !== 1 - level)
                          .map((f) => ({ value: f, label: label(f) }))}
                        value={d.groupBy[level]?.field ?? null}
                        onChange={(f) => setGroup(level, f)}
                      />
                      {d.groupBy[level] && isDateField(resource.fields[d.groupBy[level].field]) ? (
                        <Select
                          label="By"
                          data={Object.entries(BUCKET_LABELS).map(([value, l]) => ({ value, label: l }))}
                          value={d.groupBy[level].bucket}
                          allowDeselect={false}
                          onChange={(b) => setBucket(level, (b ?? 'value') as DateBucket)}
                        />
                      ) : null}
                    </Group>
                  ),
                )}
                {d.groupBy.length > 0 ? (
                  <>
                    <MultiSelect
                      label="Totals"
                      description={
                        totalOptions.length
                          ? 'Each group counts its records; add sums and averages.'
                          : 'Each group counts its records; this list has no amounts to total.'
                      }
                      data={totalOptions}
                      value={d.aggregates.map(aggregateKey)}
                      disabled={totalOptions.length === 0}
                      onChange={setTotals}
                    />
                    <Stack gap={4}>
                      <Text size="sm" fw={500} id="report-chart-label">
                        Chart
                      </Text>
                      <SegmentedControl
                        aria-labelledby="report-chart-label"
                        data={CHART_CHOICES}
                        value={d.chart?.type ?? 'none'}
                        onChange={(v) =>
                          setDefinition({
                            chart:
                              v === 'none'
                                ? null
                                : { type: v as ChartType, measure: d.chart?.measure ?? 'count' },
                          })
                        }
                      />
                    </Stack>
                    {d.chart ? (
                      <Select
                        label="Chart shows"
                        data={measures.map((m) => ({
                          value: aggregateKey(m),
                          label: aggregateTitle(resource, m),
                        }))}
                        value={d.chart.measure}
                        allowDeselect={false}
                        onChange={(m) => d.chart && m && setDefinition({ chart: { ...d.chart, measure: m } })}
                      />
                    ) : null}
                    <Select
                      label="Order groups by"
                      data={[
                        { value: 'key', label: d.groupBy.length > 1 ? 'Their values' : 'Their value' },
                        ...measures.flatMap((m) => {
                          const t = aggregateTitle(resource, m);
                          return [
                            { value: `${aggregateKey(m)}:desc`, label: `${t}, largest first` },
                            { value: `${aggregateKey(m)}:asc`, label: `${t}, smallest first` },
                          ];
                        }),
                      ]}
                      value={d.groupOrder ? `${d.groupOrder.measure}:${d.groupOrder.direction}` : 'key'}
                      allowDeselect={false}
                      onChange={(v) => {
                        if (!v || v === 'key') return setDefinition({ groupOrder: null });
                        const [measure = 'count', direction] = v.split(':');
                        setDefinition({
                          groupOrder: { measure, direction: direction === 'asc' ? 'asc' : 'desc' },
                        });
                      }}
                    />
                  </>
                ) : null}
                <Title order={2} size="h5" mt="xs">
                  Parameters
                </Title>
                <Text size="sm" c="dimmed">
                  Asked each time the report runs; a schedule and a dashboard pin keep their values. The
                  preview runs without them.
                </Text>
                {d.parameters.map((p, i) => (
                  <Group key={p.name} gap="xs" align="flex-end" wrap="nowrap" data-testid="report-parameter">
                    <TextInput
                      label={`Asks for ${label(p.field).toLowerCase()} as`}
                      value={p.label}
                      style={{ flex: 1 }}
                      onChange={(e) => setParameter(i, { label: e.currentTarget.value })}
                    />
                    <Checkbox
                      label="Required"
                      mb={8}
                      checked={p.required}
                      onChange={(e) => setParameter(i, { required: e.currentTarget.checked })}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mb={4}
                      aria-label={`Remove the parameter ${p.label}`}
                      onClick={() => setDefinition({ parameters: d.parameters.filter((_, j) => j !== i) })}
                    >
                      <IconX size={16} aria-hidden />
                    </ActionIcon>
                  </Group>
                ))}
                {d.parameters.length < 10 ? (
                  <Select
                    label="Add a parameter"
                    placeholder="Ask for…"
                    data={parameterable
                      .filter((f) => !d.parameters.some((p) => p.field === f))
                      .map((f) => ({ value: f, label: label(f) }))}
                    value={null}
                    searchable
                    onChange={(field) =>
                      field &&
                      setDefinition({
                        parameters: [
                          ...d.parameters,
                          { name: field, label: label(field), field, required: false },
                        ],
                      })
                    }
                  />
                ) : null}
                <Stack gap={4} mt="xs">
                  <Text size="sm" fw={500} id="report-sharing-label">
                    Who sees it
                  </Text>
                  <SegmentedControl
                    aria-labelledby="report-sharing-label"
                    data={[
                      { value: 'private', label: 'Only me' },
                      { value: 'shared', label: 'All staff' },
                    ]}
                    value={draft.shared ? 'shared' : 'private'}
                    onChange={(v) => setDraft((x) => ({ ...x, shared: v === 'shared' }))}
                  />
                </Stack>
              </>
            ) : null}
            <Group mt="sm">
              <Button onClick={() => void save()} loading={saving} disabled={problems.length > 0}>
                Save report
              </Button>
              <Button variant="default" component={Link} to="/a/reports">
                Cancel
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm" aria-label="Preview" component="section">
            <Group gap="xs">
              <Title order={2} size="h4">
                Preview
              </Title>
              {preview.isFetching ? (
                <Badge variant="light" color="gray">
                  Updating…
                </Badge>
              ) : null}
            </Group>
            {problems.length > 0 ? (
              <Alert color="yellow" title="The report cannot run yet">
                {problems.join(' ')}
              </Alert>
            ) : preview.error ? (
              <ErrorBlock error={preview.error} onRetry={() => void preview.refetch()} />
            ) : !preview.data ? (
              <LoadingBlock label="Running the report" />
            ) : preview.data.Grouping ? (
              <GroupedResult result={preview.data.Grouping} title="Preview" />
            ) : (
              <PreviewRows data={preview.data} resource={resource} />
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      {filtering && resource ? (
        <Suspense fallback={null}>
          <AdvancedFilterDialog
            resource={resource}
            fields={[...resource.filterable]}
            initial={[...d.criteria]}
            onClose={() => setFiltering(false)}
            onApply={(criteria) => {
              setDefinition({ criteria });
              setFiltering(false);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}

function displayValue(resource: ResourceDeclaration, c: FilterCriterion): string {
  const show = (v: unknown) =>
    resource.fields[c.PropertyName]?.options?.find((o) => o.Id === v)?.Name ?? String(v ?? '');
  if (Array.isArray(c.Value)) return c.Value.map(show).join(', ');
  return show(c.Value);
}

function PreviewRows({
  data,
  resource,
}: {
  data: NonNullable<Awaited<ReturnType<typeof previewReport>>>;
  resource: ResourceDeclaration | null;
}) {
  const timeZone = displayTimeZone(useIdentity());
  return (
    <Stack gap="xs">
      <Paper withBorder>
        <Table.ScrollContainer minWidth={420}>
          <Table aria-label="Preview" striped>
            <Table.Thead>
              <Table.Tr>
                {data.Columns.map((c) => (
                  <Table.Th key={c.field}>{c.title}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.Rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no key of their own
                <Table.Tr key={i}>
                  {data.Columns.map((c) => {
                    const field = resource?.fields[c.field];
                    return (
                      <Table.Td key={c.field}>
                        {field
                          ? displayText({ field, value: row[c.field], context: { timeZone } })
                          : String(row[c.field] ?? '')}
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Text size="sm" c="dimmed">
        {data.TotalRecordAvailable} records; the first page shown.
      </Text>
    </Stack>
  );
}
