import '@mantine/charts/styles.css';
import { chartPoints, type ReportGroupingResult } from '@guildhall/shared';
import { BarChart, LineChart, PieChart } from '@mantine/charts';
import { Alert, ColorSwatch, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { formatMoney } from '../../money.ts';

const PALETTE = [
  'guild.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'cyan.6',
  'yellow.7',
  'red.6',
  'lime.7',
  'indigo.5',
];
const MAX_SERIES = 8;

type Measure = ReportGroupingResult['Measures'][number];

export function measureText(m: Pick<Measure, 'money'>, value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return m.money ? formatMoney(value) : new Intl.NumberFormat('en-US').format(value);
}

/**
 * A grouped report's chart: each first-level group's measure as bars, a line or pie slices; with two levels, bars
 * and lines split by the second level (stacked bars), its first values named and the rest as "Other".
 */
export function ReportChart({ result, height = 260 }: { result: ReportGroupingResult; height?: number }) {
  const chart = result.Chart;
  if (!chart) return null;
  const measure = result.Measures.find((m) => m.key === chart.measure) ?? result.Measures[0];
  if (!measure) return null;
  const format = (v: number) => measureText(measure, v);
  const points = chartPoints(result);
  if (chart.type === 'pie') {
    const slices = points.map((p, i) => ({
      name: p.label,
      value: p.value,
      color: PALETTE[i % PALETTE.length] as string,
    }));
    return (
      <Group justify="center" gap="xl" wrap="wrap">
        <PieChart
          h={height}
          size={Math.min(220, height - 40)}
          withLabelsLine
          labelsPosition="outside"
          labelsType="percent"
          withLabels
          withTooltip
          tooltipDataSource="segment"
          valueFormatter={format}
          data={slices}
        />
        <Stack
          gap={4}
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label="Legend"
        >
          {slices.map((s) => (
            <Group key={s.name} component="li" gap={6} wrap="nowrap">
              <ColorSwatch color={`var(--mantine-color-${s.color.replace('.', '-')})`} size={12} />
              <Text size="sm">
                {s.name}: {format(s.value)}
              </Text>
            </Group>
          ))}
        </Stack>
      </Group>
    );
  }
  const split = result.Levels.length === 2 ? splitBySecondLevel(result, measure.key) : null;
  const data = split?.data ?? points.map((p) => ({ label: p.label, [measure.title]: p.value }));
  const series = split?.series ?? [{ name: measure.title, color: 'guild.6' }];
  const common = {
    h: height,
    data,
    dataKey: 'label',
    series,
    valueFormatter: format,
    withLegend: series.length > 1,
    tickLine: 'y' as const,
  };
  if (chart.type === 'line') return <LineChart {...common} />;
  return <BarChart {...common} {...(split ? { type: 'stacked' as const } : {})} />;
}

function splitBySecondLevel(result: ReportGroupingResult, key: string) {
  const seconds = result.Rows.filter((r) => r.Level === 2);
  const totals = new Map<string, number>();
  for (const r of seconds)
    totals.set(r.Labels[1] ?? '', (totals.get(r.Labels[1] ?? '') ?? 0) + (r.Values[key] ?? 0));
  const named = [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_SERIES)
    .map(([name]) => name);
  const other = totals.size > named.length;
  const data = result.Rows.filter((r) => r.Level === 1).map((first) => {
    const point: Record<string, string | number> = { label: first.Labels[0] ?? '' };
    for (const r of seconds.filter((s) => s.Keys[0] === first.Keys[0])) {
      const name = named.includes(r.Labels[1] ?? '') ? (r.Labels[1] ?? '') : 'Other';
      point[name] = Number(point[name] ?? 0) + (r.Values[key] ?? 0);
    }
    return point;
  });
  const series = [...named, ...(other ? ['Other'] : [])].map((name, i) => ({
    name,
    color: PALETTE[i % PALETTE.length] as string,
  }));
  return { data, series };
}

/** The grouped table: each group with its measures, a subtotal heading its second-level groups, the total last. */
export function GroupedTable({ result, title }: { result: ReportGroupingResult; title: string }) {
  const levels = result.Levels.length;
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={420}>
        <Table aria-label={title} data-grouped-table>
          <Table.Thead>
            <Table.Tr>
              {result.Levels.map((l) => (
                <Table.Th key={l.field}>{l.title}</Table.Th>
              ))}
              {result.Measures.map((m) => (
                <Table.Th key={m.key} style={{ textAlign: 'right' }}>
                  {m.title}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.Rows.map((row) => {
              const heading = row.Level === 0 || (levels === 2 && row.Level === 1);
              const key = `${row.Level}:${row.Keys.map(String).join('|')}`;
              return (
                <Table.Tr
                  key={key}
                  data-level={row.Level}
                  fw={heading ? 600 : undefined}
                  bg={row.Level === 0 ? 'var(--mantine-color-gray-1)' : undefined}
                >
                  {result.Levels.map((l, i) => (
                    <Table.Td key={l.field} pl={i === 1 && row.Level === 2 ? 'lg' : undefined}>
                      {row.Level === 0
                        ? i === 0
                          ? 'Total'
                          : ''
                        : // A second-level row sits under its group's subtotal row, which names the group.
                          i < row.Level && !(row.Level === 2 && i === 0)
                          ? row.Labels[i]
                          : ''}
                    </Table.Td>
                  ))}
                  {result.Measures.map((m) => (
                    <Table.Td key={m.key} style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                      {measureText(m, row.Values[m.key])}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/** Chart above the grouped table, and a note when there were more groups than a report shows. */
export function GroupedResult({ result, title }: { result: ReportGroupingResult; title: string }) {
  return (
    <>
      {result.Chart ? (
        <Paper withBorder p="md" data-report-chart={result.Chart.type}>
          <ReportChart result={result} />
          <ul className="visually-hidden">
            {chartPoints(result).map((p) => (
              <li key={p.label}>
                {p.label}: {p.value}
              </li>
            ))}
          </ul>
        </Paper>
      ) : null}
      {result.Truncated ? (
        <Alert color="yellow" title="Only the first groups are shown">
          This report has more groups than a report shows. Add a filter or group by fewer values.
        </Alert>
      ) : null}
      {result.Rows.length <= 1 && result.Rows[0]?.Values.count === 0 ? (
        <Text c="dimmed" size="sm">
          No records match this report yet.
        </Text>
      ) : null}
      <GroupedTable result={result} title={title} />
    </>
  );
}
