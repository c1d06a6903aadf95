/**
 * The Demo Association's own reports (issue 20): what its staff build over their lists in the first weeks (where
 * the contacts are, dues by chapter, invoicing by month, the lapsed members to win back), shared or private, and
 * one report pinned to the administrator's dashboard.
 */
import { type Db, reportPins, savedReports, withTenantTx } from '@guildhall/db';
import { type ReportDefinitionInput, reportDefinitionSchema } from '@guildhall/shared';

export const DEMO_SAVED_REPORTS: {
  title: string;
  description: string;
  isShared: boolean;
  definition: ReportDefinitionInput;
}[] = [
  {
    title: 'Contacts by status and state',
    description: 'Where our contacts are, split by status: the board asks for it every quarter.',
    isShared: true,
    definition: {
      resource: 'contacts',
      groupBy: [{ field: 'StateProvince' }, { field: 'Status' }],
      chart: { type: 'bar', measure: 'count' },
    },
  },
  {
    title: 'Dues by chapter',
    description: 'Active memberships of each chapter with the dues they bring per term.',
    isShared: true,
    definition: {
      resource: 'memberships',
      criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'active' }],
      groupBy: [{ field: 'ChapterId' }],
      aggregates: [
        { fn: 'sum', field: 'TermTotal' },
        { fn: 'avg', field: 'TermTotal' },
      ],
      chart: { type: 'bar', measure: 'sum_TermTotal' },
    },
  },
  {
    title: 'Invoiced by month',
    description: 'What we invoiced each month and what is still owed.',
    isShared: false,
    definition: {
      resource: 'invoices',
      groupBy: [{ field: 'IssueDate', bucket: 'month' }],
      aggregates: [
        { fn: 'sum', field: 'TotalCents' },
        { fn: 'sum', field: 'BalanceCents' },
      ],
      chart: { type: 'line', measure: 'sum_TotalCents' },
    },
  },
  {
    title: 'Lapsed members to win back',
    description: 'Lapsed memberships, the most recent first: the renewal calls of the week.',
    isShared: true,
    definition: {
      resource: 'memberships',
      columns: ['ContactName', 'Name', 'TermEnd', 'TermTotal'],
      criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'lapsed' }],
      sort: { field: 'TermEnd', direction: 'desc' },
    },
  },
];

/** The report the demo administrator finds on the home dashboard. */
export const DEMO_PINNED_REPORT = 'memberships.byType';

export async function seedDemoReports(db: Db, tenantId: string, userId: number): Promise<void> {
  await withTenantTx(db, { tenantId, userId }, async (tx) => {
    await tx.insert(savedReports).values(
      DEMO_SAVED_REPORTS.map((r) => {
        const definition = reportDefinitionSchema.parse(r.definition);
        return {
          tenantId,
          ownerUserId: userId,
          title: r.title,
          description: r.description,
          isShared: r.isShared,
          resource: definition.resource,
          definition: definition as unknown as Record<string, unknown>,
        };
      }),
    );
    await tx.insert(reportPins).values({ tenantId, userId, reportId: DEMO_PINNED_REPORT });
  });
}
