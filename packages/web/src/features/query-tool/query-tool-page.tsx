/**
 * The developer query tool at /a/dev/QuerytoolDownload (spec 001 sections 2, 4, 5 and 8): a list of named queries
 * with a filter box (applied from 3 characters), a parameter form built from the declared types, Run (the results
 * panel shows the HTML page the server answers) and Download CSV (a refused download's text is put in the page).
 */

import {
  DATE_RANGE_CUSTOM,
  DATE_RANGE_OPTIONS,
  filterQueries,
  QUERY_FILTER_MIN_LENGTH,
  type QueryCatalogueItem,
  queryFilterApplies,
} from '@guildhall/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Grid,
  Group,
  NavLink,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDownload, IconPlayerPlay, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { can, useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';

export const queriesKey = ['query-tool', 'queries'] as const;

export function QueryToolPage() {
  return (
    <RequirePermission permission="querytool.run">
      <QueryToolScreen />
    </RequirePermission>
  );
}

/** What the results panel shows: a page of rows read from the server's HTML, or the server's refusal. */
interface Results {
  summary: string;
  columns: string[];
  rows: string[][];
  page: number;
  nextPage: number | null;
}

/** Reads the server's HTML answer (parsed, never injected: the panel renders its cells as text). */
function readResults(html: string): Results | { error: string } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const error = doc.querySelector('.query-error');
  if (error) return { error: error.textContent ?? '' };
  const section = doc.querySelector('.query-results');
  const columns = [...doc.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
  const rows = [...doc.querySelectorAll('tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
  );
  const next = section?.getAttribute('data-next-page');
  return {
    summary: doc.querySelector('.query-results-summary')?.textContent ?? '',
    columns,
    rows,
    page: Number(section?.getAttribute('data-page') ?? 1),
    nextPage: next ? Number(next) : null,
  };
}

function defaults(query: QueryCatalogueItem): Record<string, string> {
  const values: Record<string, string> = {};
  for (const p of query.parameters) values[p.name] = p.default ?? '';
  return values;
}

function QueryToolScreen() {
  const me = useIdentity();
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const queries = useQuery({
    queryKey: queriesKey,
    queryFn: ({ signal }) => api.get<QueryCatalogueItem[]>('/api/query-tool/queries', { signal }),
  });
  const shown = useMemo(() => filterQueries(queries.data ?? [], filter), [queries.data, filter]);
  const groups = useMemo(() => {
    const map = new Map<string, QueryCatalogueItem[]>();
    for (const q of shown) map.set(q.group, [...(map.get(q.group) ?? []), q]);
    return [...map.entries()];
  }, [shown]);
  const current = queries.data?.find((q) => q.name === selected) ?? null;

  return (
    <>
      <PageHeader
        title="Query tool"
        description="Run the association's named queries, read the results here or download them as CSV. Queries only read, and only your association's records."
        actions={
          can(me, 'querytool.manage') ? (
            <Button component={Link} to="/micronet/list/dev/queries" variant="default">
              Our queries
            </Button>
          ) : undefined
        }
      />
      {queries.isPending ? <LoadingBlock label="Loading queries" /> : null}
      {queries.isError ? <ErrorBlock error={queries.error} onRetry={() => void queries.refetch()} /> : null}
      {queries.data ? (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Paper withBorder p="sm" radius="md">
              <TextInput
                label="Filter queries"
                placeholder="e.g. email"
                description={`Filters from ${QUERY_FILTER_MIN_LENGTH} characters`}
                leftSection={<IconSearch size={16} aria-hidden />}
                value={filter}
                onChange={(e) => setFilter(e.currentTarget.value)}
                mb="sm"
              />
              <nav aria-label="Named queries">
                {groups.length === 0 ? (
                  <Text c="dimmed" size="sm" py="sm">
                    No query matches “{filter.trim()}”.
                  </Text>
                ) : null}
                {groups.map(([group, list]) => (
                  <Stack key={group} gap={0} mb="xs">
                    <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="xs" py={4}>
                      {group}
                    </Text>
                    {list.map((q) => (
                      <NavLink
                        key={q.name}
                        component="button"
                        type="button"
                        label={q.title}
                        description={q.description}
                        active={q.name === selected}
                        onClick={() => setSelected(q.name)}
                        rightSection={
                          q.origin === 'association' ? (
                            <Badge size="xs" variant="light">
                              Ours
                            </Badge>
                          ) : null
                        }
                      />
                    ))}
                  </Stack>
                ))}
              </nav>
              {queryFilterApplies(filter) ? (
                <Text size="xs" c="dimmed" px="xs">
                  {shown.length} of {queries.data.length} queries
                </Text>
              ) : null}
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {current ? (
              <QueryRunner key={current.name} query={current} />
            ) : (
              <Paper withBorder p="xl" radius="md">
                <Text c="dimmed">Choose a query on the left to fill its parameters and run it.</Text>
              </Paper>
            )}
          </Grid.Col>
        </Grid>
      ) : null}
    </>
  );
}

function formBody(query: QueryCatalogueItem, values: Record<string, string>, page?: number): URLSearchParams {
  const body = new URLSearchParams({ QueryName: query.name });
  if (page) body.set('Page', String(page));
  for (const [k, v] of Object.entries(values)) body.set(k, v);
  return body;
}

function QueryRunner({ query }: { query: QueryCatalogueItem }) {
  const [values, setValues] = useState<Record<string, string>>(() => defaults(query));
  const [results, setResults] = useState<Results | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const set = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));

  const run = async (page = 1) => {
    setRunning(true);
    setError(null);
    try {
      const res = await fetch('/a/dev/QuerytoolRun', {
        method: 'POST',
        credentials: 'same-origin',
        body: formBody(query, values, page),
      });
      const text = await res.text();
      const read = readResults(text);
      if ('error' in read) {
        setResults(null);
        setError(read.error);
      } else if (!res.ok) {
        setResults(null);
        setError(text || `The query could not run (${res.status}).`);
      } else setResults(read);
    } catch {
      setError('The query could not be sent. Check your connection and try again.');
    } finally {
      setRunning(false);
    }
  };

  const download = async () => {
    setDownloading(true);
    setError(null);
    try {
      const res = await fetch('/a/dev/QuerytoolDownload', {
        method: 'POST',
        credentials: 'same-origin',
        body: formBody(query, values),
      });
      if (!res.ok) {
        // Spec 001 section 8: "Query download error: the response text is put in the page".
        setError(await res.text());
        return;
      }
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? `${query.name}.csv`;
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setError('The download could not be sent. Check your connection and try again.');
    } finally {
      setDownloading(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(1);
  };

  return (
    <Stack gap="md">
      <Paper
        withBorder
        p="md"
        radius="md"
        component="form"
        onSubmit={submit}
        aria-label={`Run ${query.title}`}
      >
        <Stack gap="sm">
          <div>
            <Title order={2} size="h3">
              {query.title}
            </Title>
            <Text size="sm" c="dimmed">
              {query.description}
            </Text>
          </div>
          {query.parameters.length === 0 ? (
            <Text size="sm">This query has no parameters.</Text>
          ) : (
            <Group align="flex-start" gap="md" wrap="wrap">
              {query.parameters.map((p) => (
                <ParameterInput key={p.name} parameter={p} values={values} onChange={set} />
              ))}
            </Group>
          )}
          <Group gap="sm">
            <Button type="submit" leftSection={<IconPlayerPlay size={16} aria-hidden />} loading={running}>
              Run
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={downloading}
              onClick={() => void download()}
            >
              Download CSV
            </Button>
          </Group>
          <details>
            <summary>
              <Text span size="sm" c="dimmed">
                Show the SQL
              </Text>
            </summary>
            <Code block mt="xs">
              {query.sql}
            </Code>
          </details>
        </Stack>
      </Paper>
      {error ? (
        <Alert color="red" title="The query did not run" role="alert" data-testid="query-error">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {error}
          </Text>
        </Alert>
      ) : null}
      {results ? <ResultsPanel results={results} onPage={(p) => void run(p)} /> : null}
    </Stack>
  );
}

function ResultsPanel({ results, onPage }: { results: Results; onPage: (page: number) => void }) {
  return (
    <Paper withBorder radius="md" p="md" aria-label="Results" component="section">
      <Group justify="space-between" mb="xs">
        <Text size="sm" data-testid="query-summary">
          {results.summary}
        </Text>
        <Group gap="xs">
          {results.page > 1 ? (
            <Anchor component="button" type="button" size="sm" onClick={() => onPage(results.page - 1)}>
              Previous page
            </Anchor>
          ) : null}
          {results.nextPage ? (
            <Anchor component="button" type="button" size="sm" onClick={() => onPage(results.nextPage ?? 1)}>
              Next page
            </Anchor>
          ) : null}
        </Group>
      </Group>
      {results.columns.length ? (
        <ScrollArea type="auto">
          <Table striped highlightOnHover withTableBorder fz="sm" miw={400}>
            <Table.Thead>
              <Table.Tr>
                {results.columns.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: two columns of a query may share a name
                  <Table.Th key={`${c}-${i}`}>{c}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.rows.map((row, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: result rows have no identity of their own
                <Table.Tr key={r}>
                  {row.map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the cells of a row are positional
                    <Table.Td key={i}>{cell}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      ) : null}
    </Paper>
  );
}

function ParameterInput({
  parameter: p,
  values,
  onChange,
}: {
  parameter: QueryCatalogueItem['parameters'][number];
  values: Record<string, string>;
  onChange: (name: string, value: string) => void;
}) {
  const value = values[p.name] ?? '';
  switch (p.type) {
    case 'select':
      return (
        <Select
          label={p.label}
          required={p.required}
          clearable={!p.required}
          placeholder={p.required ? 'Choose' : 'Any'}
          data={p.options.map((o) => ({ value: o.Key, label: o.Value }))}
          value={value || null}
          onChange={(v) => onChange(p.name, v ?? '')}
          w={220}
        />
      );
    case 'dateRange':
      return (
        <Group gap="xs" align="flex-end">
          <Select
            label={p.label}
            required={p.required}
            clearable={!p.required}
            placeholder="Any time"
            data={DATE_RANGE_OPTIONS.map((o) => ({ value: String(o.Id), label: o.Name }))}
            value={value || null}
            onChange={(v) => onChange(p.name, v ?? '')}
            w={220}
          />
          {value === String(DATE_RANGE_CUSTOM) ? (
            <>
              <TextInput
                type="date"
                label="From"
                value={values[`${p.name}_StartDate`] ?? ''}
                onChange={(e) => onChange(`${p.name}_StartDate`, e.currentTarget.value)}
              />
              <TextInput
                type="date"
                label="To"
                value={values[`${p.name}_EndDate`] ?? ''}
                onChange={(e) => onChange(`${p.name}_EndDate`, e.currentTarget.value)}
              />
            </>
          ) : null}
        </Group>
      );
    case 'date':
      return (
        <TextInput
          type="date"
          label={p.label}
          required={p.required}
          value={value}
          onChange={(e) => onChange(p.name, e.currentTarget.value)}
          w={200}
        />
      );
    case 'number':
      return (
        <TextInput
          inputMode="decimal"
          label={p.label}
          required={p.required}
          value={value}
          onChange={(e) => onChange(p.name, e.currentTarget.value)}
          w={160}
        />
      );
    default:
      return (
        <TextInput
          label={p.label}
          required={p.required}
          value={value}
          onChange={(e) => onChange(p.name, e.currentTarget.value)}
          w={240}
        />
      );
  }
}
