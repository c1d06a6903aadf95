/**
 * P1 for every combination a user can reach on a resource's list (issue 22, decision 0100): each sortable field
 * ascending and descending, with no filter and each named filter, at `$skip` 0 and a deep page, and the list's
 * search box with the terms given (common, rare, many matches) at the first page and a later one. Generic over a
 * resource declaration: memberships, invoices, events and attendees get the same matrix by calling it with theirs.
 * Reports every combination, the worst beside the median, and whether the worst meets the bar.
 */
import type { ResourceDeclaration } from '@guildhall/shared';

export interface MatrixCombination {
  sort: string;
  direction: 'asc' | 'desc';
  filter: string;
  skip: number;
  search?: string;
  p50: number;
  p95: number;
  total: number;
  estimate?: boolean;
  rows: number;
}

export interface ListMatrix {
  resource: string;
  bar: string;
  combinations: number;
  requestsEach: number;
  medianP95: number;
  worst: MatrixCombination;
  /** The five slowest, worst first. */
  slowest: MatrixCombination[];
  pass: boolean;
  all: MatrixCombination[];
}

function percentile(sorted: number[], q: number): number {
  return +(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(2);
}

/**
 * With BENCH_SLOW_MS set, each timed request slower than that many milliseconds is written to stderr with its start
 * (ms since the process started, the clock `node --trace-gc` prints, and the wall clock the database's log prints),
 * so a stall can be matched with a collection or a statement the database logged (`log_min_duration_statement`).
 */
const slowMs = process.env.BENCH_SLOW_MS ? Number(process.env.BENCH_SLOW_MS) : undefined;
function slowRequest(start: number, took: number, path: string, body: unknown): void {
  const wall = new Date(performance.timeOrigin + start).toISOString();
  process.stderr.write(
    `slow request at ${start.toFixed(1)} ms (${wall}): ${took.toFixed(1)} ms ${path} ${JSON.stringify(body)}\n`,
  );
}

export async function measureListMatrix(options: {
  resource: ResourceDeclaration;
  /** Sends one list request; answers the raw answer's text. Timed to its last byte. */
  post: (path: string, body: unknown) => Promise<string>;
  skips: readonly number[];
  /** Search box terms by name (common, rare, many matches). */
  searchTerms?: Record<string, string>;
  /** `$skip` of the search box's later page. */
  searchSkips?: readonly number[];
  requests?: number;
  warm?: number;
  barMs?: number;
}): Promise<ListMatrix> {
  const { resource, post } = options;
  const requests = options.requests ?? 20;
  const warm = options.warm ?? 2;
  const barMs = options.barMs ?? 50;
  const base = `/api/${resource.feature}/${resource.subfeature}/${resource.view}Data`;
  const filters = [{ Id: 0, Name: 'None' }, ...resource.filters.map((f) => ({ Id: f.Id, Name: f.Name }))];
  const asks: Omit<MatrixCombination, 'p50' | 'p95' | 'total' | 'rows' | 'estimate'>[] = [];
  for (const sort of resource.sortable)
    for (const direction of ['asc', 'desc'] as const)
      for (const f of filters)
        for (const skip of options.skips) asks.push({ sort, direction, filter: f.Name, skip });
  for (const [name, term] of Object.entries(options.searchTerms ?? {}))
    for (const skip of options.searchSkips ?? [0])
      asks.push({
        sort: resource.defaultSort.field,
        direction: resource.defaultSort.direction,
        filter: 'None',
        skip,
        search: `${name}: ${term}`,
      });
  const all: MatrixCombination[] = [];
  for (const ask of asks) {
    const filterId = filters.find((f) => f.Name === ask.filter)?.Id ?? 0;
    const term = ask.search ? ask.search.slice(ask.search.indexOf(': ') + 2) : undefined;
    const path = `${base}?$top=50&$skip=${ask.skip}&$orderby=${encodeURIComponent(`${ask.sort} ${ask.direction}`)}${
      term ? `&$search=${encodeURIComponent(term)}` : ''
    }`;
    const body = { Id: filterId };
    let answer = '';
    for (let i = 0; i < warm; i++) answer = await post(path, body);
    const samples: number[] = [];
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      await post(path, body);
      const took = performance.now() - t;
      if (slowMs !== undefined && took > slowMs) slowRequest(t, took, path, body);
      samples.push(took);
    }
    samples.sort((a, b) => a - b);
    const parsed = JSON.parse(answer) as {
      TotalRecordAvailable: number;
      TotalIsEstimate?: boolean;
      Results: unknown[];
    };
    all.push({
      ...ask,
      p50: percentile(samples, 0.5),
      p95: percentile(samples, 0.95),
      total: parsed.TotalRecordAvailable,
      ...(parsed.TotalIsEstimate ? { estimate: true } : {}),
      rows: parsed.Results.length,
    });
  }
  const byP95 = [...all].sort((a, b) => b.p95 - a.p95);
  const p95s = all.map((c) => c.p95).sort((a, b) => a - b);
  const worst = byP95[0] as MatrixCombination;
  return {
    resource: resource.name,
    bar: `every combination p95 <= ${barMs} ms`,
    combinations: all.length,
    requestsEach: requests,
    medianP95: percentile(p95s, 0.5),
    worst,
    slowest: byP95.slice(0, 5),
    pass: worst.p95 <= barMs,
    all,
  };
}
