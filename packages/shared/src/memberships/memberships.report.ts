/** Shipped reports over memberships: members by membership type, with the dues they bring per term. */
import { defineReport } from '../platform/report.ts';

export const membersByTypeReport = defineReport({
  ReportId: 'memberships.byType',
  Title: 'Members by type',
  Description: 'Active memberships grouped by membership type and level, with their dues per term.',
  resource: 'memberships',
  columns: ['ContactName', 'Name', 'Status', 'TermEnd', 'TermTotal'],
  criteria: [{ PropertyName: 'Status', Operator: 'in', Value: ['active', 'grace'] }],
  parameters: [],
  defaultSort: { field: 'ContactName', direction: 'asc' },
  pageSize: 25,
  groupBy: [
    { field: 'MembershipTypeId', bucket: 'value' },
    { field: 'MembershipLevelId', bucket: 'value' },
  ],
  aggregates: [
    { fn: 'sum', field: 'TermTotal' },
    { fn: 'avg', field: 'TermTotal' },
  ],
  chart: { type: 'pie', measure: 'count' },
});

/** The roster: everyone who is a member today (active or in grace), optionally of one type, level or chapter. */
export const rosterReport = defineReport({
  ReportId: 'memberships.roster',
  Title: 'Membership roster',
  Description: 'Current members (active or in grace) with their membership, when they joined and their term.',
  resource: 'memberships',
  columns: ['ContactName', 'Name', 'Status', 'JoinDate', 'TermEnd', 'TermTotal', 'AutoPay'],
  criteria: [{ PropertyName: 'Status', Operator: 'in', Value: ['active', 'grace'] }],
  parameters: [
    { name: 'MembershipTypeId', label: 'Membership type', field: 'MembershipTypeId' },
    { name: 'MembershipLevelId', label: 'Level', field: 'MembershipLevelId' },
    { name: 'ChapterId', label: 'Chapter', field: 'ChapterId' },
  ],
  defaultSort: { field: 'ContactName', direction: 'asc' },
  pageSize: 50,
});

/** New members: memberships that started in a date range (the 0-37 options, or Custom). */
export const newMembersReport = defineReport({
  ReportId: 'memberships.newMembers',
  Title: 'New members',
  Description: 'Memberships that joined in a date range, with their status today.',
  resource: 'memberships',
  columns: ['ContactName', 'Name', 'JoinDate', 'Status', 'TermEnd', 'TermTotal'],
  criteria: [],
  parameters: [{ name: 'Joined', label: 'Joined', field: 'JoinDate' }],
  defaultSort: { field: 'JoinDate', direction: 'desc' },
  pageSize: 50,
});

/** Renewals due: current members whose term ends in a date range (the memberships list's expiring filter). */
export const renewalsDueReport = defineReport({
  ReportId: 'memberships.renewalsDue',
  Title: 'Renewals due',
  Description: 'Active and grace memberships whose term ends in a date range, with their dues and autopay.',
  resource: 'memberships',
  columns: ['ContactName', 'Name', 'Status', 'TermEnd', 'TermTotal', 'AutoPay'],
  criteria: [{ PropertyName: 'Status', Operator: 'in', Value: ['active', 'grace'] }],
  parameters: [{ name: 'TermEnds', label: 'Term ends', field: 'TermEnd' }],
  defaultSort: { field: 'TermEnd', direction: 'asc' },
  pageSize: 50,
});

/** Lapsed and dropped members with the day and, for a drop, the reason. */
export const lapsedDroppedReport = defineReport({
  ReportId: 'memberships.lapsedDropped',
  Title: 'Lapsed and dropped members',
  Description: 'Memberships that lapsed or were dropped, since when, and why a dropped one was dropped.',
  resource: 'memberships',
  columns: ['ContactName', 'Name', 'Status', 'StatusDate', 'DropReason', 'TermEnd'],
  criteria: [{ PropertyName: 'Status', Operator: 'in', Value: ['lapsed', 'dropped'] }],
  parameters: [
    { name: 'Status', label: 'Lapsed or dropped', field: 'Status' },
    { name: 'Since', label: 'Since', field: 'StatusDate' },
  ],
  defaultSort: { field: 'ContactName', direction: 'asc' },
  pageSize: 50,
});

/**
 * Retention by month: every status change of the history counted by month and the status it went to (joins,
 * activations and renewals against graces, lapses and drops), charted as columns.
 */
export const retentionByMonthReport = defineReport({
  ReportId: 'memberships.retentionByMonth',
  Title: 'Retention by month',
  Description:
    'Status changes per month: how many became active or renewed, and how many went to grace, lapsed or were dropped.',
  resource: 'membershipHistory',
  columns: ['ChangedOn', 'ToStatus', 'Event', 'Reason'],
  criteria: [],
  parameters: [{ name: 'Changed', label: 'Changed', field: 'ChangedOn' }],
  defaultSort: { field: 'ChangedOn', direction: 'asc' },
  pageSize: 50,
  groupBy: [
    { field: 'ChangedOn', bucket: 'month' },
    { field: 'ToStatus', bucket: 'value' },
  ],
  aggregates: [],
  chart: { type: 'bar', measure: 'count' },
});
