/**
 * Memberships: pricing a choice (the shared pricing rules, decisions 0012/0013, with the term and proration rules
 * of decision 0130), joining, and the lifecycle transitions with their history. Money is only computed here; the
 * invoices are billing's.
 */
import type { Tx } from '@guildhall/db';
import {
  allocateEvenly,
  applyTransition,
  type BillFrequencyOption,
  billFrequencyKind,
  billFrequencyName,
  type FeePriceRow,
  feeItemTermAmount,
  type JoinMembership,
  joinTerm,
  MEMBERSHIP_MESSAGES,
  type MembershipChoice,
  type MembershipOptions,
  type MembershipQuote,
  type MembershipTransition,
  membershipName,
  type ProrationRule,
  priceMembership,
  prorate,
  type RenewalAfterGap,
  staffTransitionsFrom,
  statusByCalendar,
  type TermKind,
  type TermSettings,
  todayIn,
  type UnitFormula,
} from '@guildhall/shared';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { badRequest, HttpError, notFound } from '../../platform/errors.ts';
import * as repo from './memberships.repo.ts';

type Caller = Pick<AuthContext, 'tenantId' | 'userId' | 'impersonatorUserId'>;

export function termSettingsOf(
  type: repo.MembershipTypeRow,
): TermSettings & { RenewalAfterGap?: RenewalAfterGap } {
  return {
    TermKind: (type.termKind as TermKind) ?? 'anniversary',
    DurationMonths: type.durationMonths,
    CalendarStartMonth: type.calendarStartMonth,
    ProrationRule: (type.prorationRule as ProrationRule | null) ?? 'none',
    CutoffDays: type.cutoffDays,
    GraceDays: type.graceDays,
    RenewalAfterGap: (type.renewalAfterGap as RenewalAfterGap | null) ?? 'continue',
  };
}

interface PricedChoice {
  price: MembershipQuote;
  type: repo.MembershipTypeRow;
  levelName: string | null;
  chapterName: string | null;
}

/** Prices a choice of type, level, chapter and frequency for a join on a day (today when not given). */
export async function priceChoice(
  tx: Tx,
  tenantId: string,
  choice: MembershipChoice,
  options: { firstTerm?: boolean } = {},
): Promise<PricedChoice> {
  const type = await repo.membershipType(tx, tenantId, choice.MembershipTypeId);
  if (!type)
    throw badRequest('Choose a membership type.', { MembershipTypeId: ['Unknown membership type.'] });
  const setup = await repo.typeSetup(tx, tenantId, type.membershipTypeId);
  const level =
    choice.MembershipLevelId == null
      ? null
      : (setup.levels.find((l) => l.membershipLevelId === choice.MembershipLevelId) ?? null);
  if (choice.MembershipLevelId != null && !level)
    throw badRequest('Choose a level of this membership type.', { MembershipLevelId: ['Unknown level.'] });
  if (setup.levels.length > 0 && !level)
    throw badRequest('Choose a level.', { MembershipLevelId: ['Choose a level.'] });
  const chapterName =
    choice.ChapterId == null ? null : await repo.chapterName(tx, tenantId, choice.ChapterId);
  if (choice.ChapterId != null && chapterName === null)
    throw badRequest('Choose a chapter.', { ChapterId: ['Unknown chapter.'] });

  const frequencies: BillFrequencyOption[] = setup.options.map((o) => ({
    BillFrequencyTypeId: o.billFrequencyTypeId,
    Name: o.name,
    PriceChangePercentage: o.priceChangePercentage,
    PerBillMultipler: o.perBillMultipler,
  }));
  const wanted = choice.BillFrequencyTypeId ?? null;
  const fallback = setup.options.find((o) => o.isDefault) ?? setup.options[0];
  const frequency: BillFrequencyOption =
    (wanted === null ? undefined : frequencies.find((f) => f.BillFrequencyTypeId === wanted)) ??
    (wanted === null && fallback
      ? (frequencies.find(
          (f) => f.BillFrequencyTypeId === fallback.billFrequencyTypeId,
        ) as BillFrequencyOption)
      : { BillFrequencyTypeId: 12 });
  if (wanted !== null && wanted !== frequency.BillFrequencyTypeId)
    throw badRequest('This membership cannot be billed that often.', {
      BillFrequencyTypeId: ['Choose one of the offered frequencies.'],
    });

  const feesList: (FeePriceRow & { RevenueAccount: string | null })[] = setup.fees.map((f) => ({
    FeeId: f.feeId,
    Name: f.name,
    MembershipLevelId: f.membershipLevelId,
    ChapterId: f.chapterId,
    Price: Number(f.originalPrice),
    OriginalPrice: Number(f.originalPrice),
    BillFrequencyTypeId: f.billFrequencyTypeId,
    IsExcludedFromDiscounts: f.isExcludedFromDiscounts,
    IsCollectedWithFirstPayment: f.isCollectedWithFirstPayment,
    PerBillAmount: f.perBillAmount === null ? null : Number(f.perBillAmount),
    Quantity: f.quantity ?? 1,
    UnitFormulas: (f.unitFormulas as UnitFormula[] | null) ?? null,
    RevenueAccount: f.revenueAccount,
  }));
  const priced = priceMembership(
    {
      MembershipTypeId: type.membershipTypeId,
      MembershipLevelId: level?.membershipLevelId ?? null,
      ChapterId: choice.ChapterId ?? null,
      TypeName: type.name,
      LevelName: level?.name ?? null,
      ChapterName: chapterName,
      FeesList: feesList,
      RoundToNearestOnes: type.roundToNearestOnes,
      FormulaBasedPricing: type.formulaBasedPricing,
      HasLevelPricing: type.hasLevelPricing,
      HasChapterPricing: type.hasChapterPricing,
      DurationMonths: type.durationMonths,
    },
    { frequency, units: choice.Units ?? null, firstTerm: options.firstTerm ?? true },
  );
  const zone = await repo.tenantTimezone(tx, tenantId);
  const joinDay = choice.JoinDate ?? todayIn(zone);
  const term = joinTerm(joinDay, termSettingsOf(type));
  const firstTerm = options.firstTerm ?? true;
  const items = [...priced.FeeItems, ...priced.OncePerTermFeeItems, ...priced.OneTimeFeeItems].filter(
    (item) => firstTerm || billFrequencyKind(item.BillFrequencyTypeId) !== 'oneTime',
  );
  const feeItems = items.map((item) => {
    const amount = feeItemTermAmount(item);
    const kind = billFrequencyKind(item.BillFrequencyTypeId);
    const bills = item.BillFrequency ?? 1;
    const wholeOnFirst =
      kind === 'oneTime' || kind === 'oncePerTerm' || kind === null || item.IsCollectedWithFirstPayment;
    const first = wholeOnFirst ? amount : (allocateEvenly(amount, Math.max(1, bills))[0] ?? 0);
    return {
      FeeId: item.FeeId ?? null,
      Name: item.Name ?? billFrequencyName(item.BillFrequencyTypeId),
      BillFrequencyTypeId: item.BillFrequencyTypeId,
      OriginalPrice: item.OriginalPrice,
      Price: item.Price,
      Quantity: item.Quantity ?? 1,
      BillFrequency: bills,
      PerBillAmount: item.PerBillAmount ?? amount,
      FirstBillAmount: kind === 'oneTime' ? first : prorate(first, term.proration),
      RevenueAccount: (item as { RevenueAccount?: string | null }).RevenueAccount ?? null,
    };
  });
  const price: MembershipQuote = {
    Name: priced.Name,
    MembershipLevelId: priced.MembershipLevelId,
    BillFrequencyTypeId: frequency.BillFrequencyTypeId,
    TermStart: term.start,
    TermEnd: term.end,
    Proration: term.proration,
    FeeItems: feeItems,
    Bills: priced.Bills,
    TermTotal: priced.TermTotal,
    FirstBill: feeItems.reduce((sum, item) => sum + item.FirstBillAmount, 0),
    UnpricedFeeIds: priced.UnpricedFeeIds,
  };
  return { price, type, levelName: level?.name ?? null, chapterName };
}

export async function options(tx: Tx, tenantId: string): Promise<MembershipOptions> {
  const types = await repo.openTypes(tx, tenantId);
  const out: MembershipOptions['Types'] = [];
  for (const type of types) {
    const setup = await repo.typeSetup(tx, tenantId, type.membershipTypeId);
    out.push({
      MembershipTypeId: type.membershipTypeId,
      Name: type.name,
      Description: type.description,
      IsOrganization: type.isOrganization,
      FormulaBasedPricing: type.formulaBasedPricing,
      Levels: setup.levels.map((l) => ({ MembershipLevelId: l.membershipLevelId, Name: l.name })),
      Frequencies:
        setup.options.length > 0
          ? setup.options.map((o) => ({
              BillFrequencyTypeId: o.billFrequencyTypeId,
              Name: o.name ?? billFrequencyName(o.billFrequencyTypeId),
              IsDefault: o.isDefault,
            }))
          : [{ BillFrequencyTypeId: 12, Name: billFrequencyName(12), IsDefault: true }],
    });
  }
  return { Types: out, Chapters: await repo.allChapters(tx, tenantId) };
}

async function record(
  tx: Tx,
  caller: Caller | null,
  m: repo.MembershipRow,
  from: string | null,
  to: string,
  event: string,
  day: string,
  reason: string | null = null,
) {
  await repo.insertHistory(tx, {
    tenantId: m.tenantId,
    membershipId: m.membershipId,
    contactId: m.contactId,
    fromStatus: from,
    toStatus: to,
    changedOn: day,
    event,
    reason,
    changedBy: await repo.userLabel(tx, caller ? (caller.impersonatorUserId ?? caller.userId) : null),
  });
}

/** Staff (or the join form) create a membership: priced, pending, with its fee items and history. */
export async function join(tx: Tx, caller: Caller, input: JoinMembership) {
  const tenantId = caller.tenantId;
  const member = await repo.contactName(tx, tenantId, input.ContactId);
  if (member === null) throw badRequest('Choose the member.', { ContactId: ['Unknown contact.'] });
  const { price, type, levelName, chapterName } = await priceChoice(tx, tenantId, input);
  if (price.UnpricedFeeIds.length > 0)
    throw badRequest('No price is set for these units: check the units or the fee formulas.', {
      Units: ['No bracket of the fee formula holds these units.'],
    });
  const zone = await repo.tenantTimezone(tx, tenantId);
  const today = todayIn(zone);
  const created = await repo.insertMembership(tx, {
    tenantId,
    contactId: input.ContactId,
    contactName: member,
    name: membershipName({ TypeName: type.name, LevelName: levelName, ChapterName: chapterName }),
    membershipTypeId: type.membershipTypeId,
    membershipLevelId: price.MembershipLevelId,
    chapterId: input.ChapterId ?? null,
    status: 'pending',
    statusDate: today,
    joinDate: price.TermStart,
    termStart: price.TermStart,
    termEnd: price.TermEnd,
    billFrequencyTypeId: price.BillFrequencyTypeId,
    termTotal: price.TermTotal,
    units: input.Units == null ? null : String(input.Units),
    autoPay: input.AutoPay ?? false,
    notes: input.Notes ?? null,
  });
  await repo.insertFeeItems(
    tx,
    price.FeeItems.map((item) => ({
      tenantId,
      membershipId: created.membershipId,
      feeId: item.FeeId,
      name: item.Name,
      billFrequencyTypeId: item.BillFrequencyTypeId,
      originalPrice: item.OriginalPrice,
      price: item.Price,
      quantity: item.Quantity,
      billFrequency: item.BillFrequency,
      perBillAmount: item.PerBillAmount,
      revenueAccount: item.RevenueAccount,
    })),
  );
  await record(tx, caller, created, null, 'pending', 'Applied', today);
  let current = created;
  // Nothing to pay and nothing to approve: the membership starts at once.
  if (price.FirstBill === 0 && !type.requiresApproval) {
    current = await repo.updateMembership(tx, tenantId, created.membershipId, {
      status: 'active',
      statusDate: today,
    });
    await record(tx, caller, current, 'pending', 'active', 'Activated (nothing to pay)', today);
  }
  await audit(tx, caller, {
    action: 'create',
    entity: 'memberships',
    entityId: created.membershipId,
    after: { ...current, FeeItems: price.FeeItems },
  });
  return { membership: current, price, type };
}

function stateOf(m: repo.MembershipRow) {
  return {
    MembershipId: m.membershipId,
    Status: m.status,
    StatusDate: m.statusDate,
    TermStart: m.termStart,
    TermEnd: m.termEnd,
    DropReason: m.dropReason,
    Actions: staffTransitionsFrom(m.status),
  };
}

const EVENTS: Record<MembershipTransition, string> = {
  approve: 'Approved',
  paid: 'Paid',
  startGrace: 'Term ended unpaid: grace',
  lapse: 'Lapsed',
  drop: 'Dropped',
  reinstate: 'Reinstated',
};

/**
 * Moves a membership through one transition, or refuses with 409 naming why. Reinstating a membership whose term
 * has ended starts a new term today. The history and the audit log record the change.
 */
export async function transition(
  tx: Tx,
  caller: Caller | null,
  tenantId: string,
  membershipId: number,
  which: MembershipTransition,
  options: { reason?: string | null; day?: string; term?: { start: string; end: string } } = {},
) {
  const m = await repo.lockMembership(tx, tenantId, membershipId);
  if (!m) throw notFound();
  const result = applyTransition(m.status, which);
  if (!result.ok) throw new HttpError(409, result.message);
  const reason = options.reason?.trim() || null;
  if (which === 'drop' && !reason)
    throw badRequest(MEMBERSHIP_MESSAGES.reasonRequired, { Reason: ['Required.'] });
  const today = options.day ?? todayIn(await repo.tenantTimezone(tx, tenantId));
  const changes: Parameters<typeof repo.updateMembership>[3] = { status: result.status, statusDate: today };
  if (which === 'drop') changes.dropReason = reason;
  if (which === 'reinstate') {
    changes.dropReason = null;
    if (!m.termEnd || m.termEnd < today) {
      const type = await repo.membershipType(tx, tenantId, m.membershipTypeId);
      if (type) {
        const term = joinTerm(today, termSettingsOf(type));
        changes.termStart = term.start;
        changes.termEnd = term.end;
      }
    }
  }
  if (options.term) {
    changes.termStart = options.term.start;
    changes.termEnd = options.term.end;
  }
  const updated = await repo.updateMembership(tx, tenantId, membershipId, changes);
  await record(tx, caller, updated, m.status, result.status, EVENTS[which], today, reason);
  if (caller)
    await audit(tx, caller, {
      action: which,
      entity: 'memberships',
      entityId: membershipId,
      before: { Status: m.status, TermEnd: m.termEnd },
      after: { Status: updated.status, TermEnd: updated.termEnd, Reason: reason },
    });
  return stateOf(updated);
}

/** The calendar's changes on a day: active memberships past their term go to grace, then lapse. */
export async function applyCalendar(
  tx: Tx,
  tenantId: string,
  rows: readonly Pick<repo.MembershipRow, 'membershipId' | 'status' | 'termEnd'>[],
  graceDaysOf: (membershipId: number) => number,
  today: string,
): Promise<number> {
  let changed = 0;
  for (const row of rows) {
    const target = statusByCalendar(row.status, row.termEnd, today, graceDaysOf(row.membershipId));
    if (!target) continue;
    if (row.status === 'active') {
      await transition(tx, null, tenantId, row.membershipId, 'startGrace', { day: today });
      changed++;
    }
    if (target === 'lapsed') {
      await transition(tx, null, tenantId, row.membershipId, 'lapse', { day: today });
      if (row.status !== 'active') changed++;
    }
  }
  return changed;
}
