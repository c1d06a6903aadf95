/**
 * Reports as data: a report is a query over a resource (its columns, fixed criteria, parameters that become
 * criteria, a default sort and a page size), declared in `shared/src/<feature>/<feature>.report.ts`.
 * The server runs it through the same engine as the lists, so it may sort and filter only on declared fields.
 */
import type { ReportAggregate, ReportChart, ReportGroup } from './report-builder.rules.ts';
import type { ReportParameterDefinition } from './report-parameters.rules.ts';
import type { FilterCriterionDeclaration } from './resource.ts';

/**
 * A parameter of a shipped report: the same as a saved report's (report-parameters.rules.ts), so both are asked,
 * bound and kept by one mechanism: a date field asks a date range, a choice or lookup one value, a number one
 * number, a text a text (contains).
 */
export type ReportParameter = Omit<ReportParameterDefinition, 'required'> & { required?: boolean };

export interface ReportDeclaration {
  readonly kind: 'report';
  ReportId: string;
  Title: string;
  Description: string;
  /** The resource name the report reads. */
  resource: string;
  columns: readonly string[];
  criteria: readonly FilterCriterionDeclaration[];
  parameters: readonly ReportParameter[];
  defaultSort: { field: string; direction: 'asc' | 'desc' };
  pageSize: number;
  /** Grouping (one or two levels) with totals and a chart (report-builder.rules.ts); the rows are the groups. */
  groupBy?: readonly ReportGroup[];
  aggregates?: readonly ReportAggregate[];
  chart?: ReportChart | null;
}

export function defineReport(input: Omit<ReportDeclaration, 'kind'>): ReportDeclaration {
  return { ...input, kind: 'report' };
}

export function isReport(value: unknown): value is ReportDeclaration {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'report';
}
