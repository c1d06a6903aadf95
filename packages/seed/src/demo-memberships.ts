/**
 * The Demo Association's memberships: three types (Individual on anniversary terms, Student on calendar years with
 * monthly proration, Organisation with level pricing), their levels, fees and bill frequencies, two chapters, and
 * about 150 memberships in every status with their priced fees and the history of their status changes.
 */
import {
  billFrequencyOptions,
  chapters,
  type Db,
  membershipFeeItems,
  membershipFees,
  membershipHistory,
  membershipLevels,
  membershipMembers,
  memberships,
  membershipTypes,
  rowsOf,
  withTenantTx,
} from '@guildhall/db';
import {
  addDays,
  anniversaryTerm,
  type BillFrequencyOption,
  type FeePriceRow,
  feeItemTermAmount,
  joinTerm,
  membershipName,
  priceMembership,
} from '@guildhall/shared';
import { sql } from 'drizzle-orm';

const DROP_REASONS = ['Retired', 'Moved away', 'Cost', 'Changed profession', 'No longer interested'];

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function seedDemoMemberships(db: Db, tenantId: string, today: string): Promise<void> {
  await withTenantTx(db, { tenantId }, async (tx) => {
    const [north, south] = await tx
      .insert(chapters)
      .values([
        { tenantId, name: 'Northern Chapter', region: 'North' },
        { tenantId, name: 'Southern Chapter', region: 'South' },
      ])
      .returning();
    const types = await tx
      .insert(membershipTypes)
      .values([
        {
          tenantId,
          name: 'Individual',
          description: 'For practising professionals. Runs a year from the day you join.',
          termKind: 'anniversary',
          durationMonths: 12,
          graceDays: 30,
          renewalDaysBefore: 30,
          reminderDaysBefore: 21,
          reminderDaysAfter: 7,
          renewalAfterGap: 'continue',
          hasChapterPricing: true,
        },
        {
          tenantId,
          name: 'Student',
          description:
            'For students in full-time education. Calendar year; joining late pays for the months left.',
          termKind: 'calendar',
          durationMonths: 12,
          calendarStartMonth: 1,
          prorationRule: 'monthly',
          cutoffDays: 61,
          graceDays: 30,
          renewalDaysBefore: 45,
          reminderDaysBefore: 30,
          reminderDaysAfter: 14,
          renewalAfterGap: 'fromPayment',
        },
        {
          tenantId,
          name: 'Organisation',
          description: 'For firms and institutions; their people join as secondary members.',
          isOrganization: true,
          requiresApproval: true,
          termKind: 'anniversary',
          durationMonths: 12,
          graceDays: 45,
          renewalDaysBefore: 60,
          reminderDaysBefore: 45,
          hasLevelPricing: true,
          roundToNearestOnes: true,
        },
      ])
      .returning();
    const [individual, student, organisation] = types as [
      (typeof types)[number],
      (typeof types)[number],
      (typeof types)[number],
    ];
    const levels = await tx
      .insert(membershipLevels)
      .values([
        { tenantId, membershipTypeId: individual.membershipTypeId, name: 'Regular', sortOrder: 1 },
        { tenantId, membershipTypeId: individual.membershipTypeId, name: 'Senior', sortOrder: 2 },
        {
          tenantId,
          membershipTypeId: organisation.membershipTypeId,
          name: 'Small',
          sortOrder: 1,
          maxSecondaryMembers: 5,
        },
        {
          tenantId,
          membershipTypeId: organisation.membershipTypeId,
          name: 'Medium',
          sortOrder: 2,
          maxSecondaryMembers: 20,
        },
        {
          tenantId,
          membershipTypeId: organisation.membershipTypeId,
          name: 'Large',
          sortOrder: 3,
          maxSecondaryMembers: 100,
        },
      ])
      .returning();
    const level = (name: string) => levels.find((l) => l.name === name) as (typeof levels)[number];
    const fee = (
      typeId: number,
      feeId: number,
      name: string,
      cents: number,
      frequency: number,
      extra: Partial<typeof membershipFees.$inferInsert> = {},
    ) => ({
      tenantId,
      membershipTypeId: typeId,
      feeId,
      name,
      originalPrice: cents,
      billFrequencyTypeId: frequency,
      revenueAccount: '4000 Dues',
      ...extra,
    });
    await tx.insert(membershipFees).values([
      fee(individual.membershipTypeId, 1, 'Annual dues', 25_000, 12),
      fee(individual.membershipTypeId, 2, 'Application fee', 2_500, 0, { revenueAccount: '4010 Fees' }),
      fee(individual.membershipTypeId, 3, 'Chapter fee', 3_000, 255, {
        chapterId: north?.chapterId ?? null,
        revenueAccount: '4020 Chapters',
      }),
      fee(individual.membershipTypeId, 3, 'Chapter fee', 2_000, 255, {
        chapterId: south?.chapterId ?? null,
        revenueAccount: '4020 Chapters',
      }),
      fee(individual.membershipTypeId, 4, 'Processing', 0, 254, {
        perBillAmount: 150,
        revenueAccount: '4030 Processing',
      }),
      fee(student.membershipTypeId, 1, 'Student dues', 6_000, 12),
      fee(organisation.membershipTypeId, 1, 'Organisation dues', 90_000, 12, {
        membershipLevelId: level('Small').membershipLevelId,
      }),
      fee(organisation.membershipTypeId, 1, 'Organisation dues', 180_000, 12, {
        membershipLevelId: level('Medium').membershipLevelId,
      }),
      fee(organisation.membershipTypeId, 1, 'Organisation dues', 350_000, 12, {
        membershipLevelId: level('Large').membershipLevelId,
      }),
      fee(organisation.membershipTypeId, 2, 'Application fee', 10_000, 0, { revenueAccount: '4010 Fees' }),
    ]);
    await tx.insert(billFrequencyOptions).values([
      {
        tenantId,
        membershipTypeId: individual.membershipTypeId,
        billFrequencyTypeId: 12,
        name: 'Annually',
        isDefault: true,
      },
      {
        tenantId,
        membershipTypeId: individual.membershipTypeId,
        billFrequencyTypeId: 3,
        name: 'Quarterly',
        priceChangePercentage: '2',
      },
      {
        tenantId,
        membershipTypeId: individual.membershipTypeId,
        billFrequencyTypeId: 1,
        name: 'Monthly',
        priceChangePercentage: '3',
      },
      {
        tenantId,
        membershipTypeId: student.membershipTypeId,
        billFrequencyTypeId: 12,
        name: 'Annually',
        isDefault: true,
      },
      {
        tenantId,
        membershipTypeId: organisation.membershipTypeId,
        billFrequencyTypeId: 12,
        name: 'Annually',
        isDefault: true,
      },
      {
        tenantId,
        membershipTypeId: organisation.membershipTypeId,
        billFrequencyTypeId: 6,
        name: 'Twice a year',
        priceChangePercentage: '1.5',
      },
    ]);
    const feeRows = await tx.select().from(membershipFees);
    const people = rowsOf<{ contact_id: number; display_name: string; contact_type: string }>(
      await tx.execute(sql`select contact_id, display_name, contact_type from contacts
        where tenant_id = ${tenantId} and not is_deleted order by contact_id limit 170`),
    );
    const random = prng(2026);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const plan: string[] = [
      ...Array(100).fill('active'),
      ...Array(10).fill('pending'),
      ...Array(12).fill('grace'),
      ...Array(15).fill('lapsed'),
      ...Array(13).fill('dropped'),
    ];
    let index = 0;
    for (const contact of people) {
      const status = plan[index++];
      if (!status) break;
      const isOrg = contact.contact_type === 'organization';
      const type = isOrg ? organisation : random() < 0.2 ? student : individual;
      const typeLevels = levels.filter((l) => l.membershipTypeId === type.membershipTypeId);
      const chosenLevel = typeLevels.length > 0 ? pick(typeLevels) : null;
      const chapter = type === individual ? pick([north, south, null]) : null;
      const frequency: BillFrequencyOption =
        type === individual && random() < 0.25
          ? { BillFrequencyTypeId: 1, PriceChangePercentage: '3' }
          : { BillFrequencyTypeId: 12 };
      // When the current term started: active ones anywhere in the last year, grace and lapsed ones earlier.
      const ago =
        status === 'active'
          ? Math.floor(random() * 360)
          : status === 'grace'
            ? 366 + Math.floor(random() * 25)
            : status === 'lapsed'
              ? 366 + 46 + Math.floor(random() * 200)
              : status === 'pending'
                ? Math.floor(random() * 10)
                : Math.floor(random() * 300);
      const start = addDays(today, -ago);
      const term =
        type.termKind === 'calendar'
          ? joinTerm(start, { TermKind: 'calendar', ProrationRule: 'monthly', CutoffDays: 61 })
          : anniversaryTerm(start, 12);
      const rows: FeePriceRow[] = feeRows
        .filter((f) => f.membershipTypeId === type.membershipTypeId)
        .map((f) => ({
          FeeId: f.feeId,
          Name: f.name,
          MembershipLevelId: f.membershipLevelId,
          ChapterId: f.chapterId,
          Price: Number(f.originalPrice),
          OriginalPrice: Number(f.originalPrice),
          BillFrequencyTypeId: f.billFrequencyTypeId,
          PerBillAmount: f.perBillAmount === null ? null : Number(f.perBillAmount),
        }));
      const price = priceMembership(
        {
          FeesList: rows,
          MembershipLevelId: chosenLevel?.membershipLevelId ?? null,
          ChapterId: chapter?.chapterId ?? null,
          HasLevelPricing: type.hasLevelPricing,
          HasChapterPricing: type.hasChapterPricing,
          RoundToNearestOnes: type.roundToNearestOnes,
        },
        { frequency },
      );
      const [created] = await tx
        .insert(memberships)
        .values({
          tenantId,
          contactId: contact.contact_id,
          contactName: contact.display_name,
          name: membershipName({
            TypeName: type.name,
            LevelName: chosenLevel?.name,
            ChapterName: chapter?.name,
          }),
          membershipTypeId: type.membershipTypeId,
          membershipLevelId: chosenLevel?.membershipLevelId ?? null,
          chapterId: chapter?.chapterId ?? null,
          status,
          statusDate: today,
          joinDate: addDays(start, status === 'pending' ? 0 : -Math.floor(random() * 1500)),
          termStart: term.start,
          termEnd: term.end,
          billFrequencyTypeId: frequency.BillFrequencyTypeId,
          termTotal: price.TermTotal,
          autoPay: random() < 0.3,
          dropReason: status === 'dropped' ? pick(DROP_REASONS) : null,
        })
        .returning();
      if (!created) continue;
      const items = [...price.FeeItems, ...price.OncePerTermFeeItems, ...price.OneTimeFeeItems];
      await tx.insert(membershipFeeItems).values(
        items.map((item) => ({
          tenantId,
          membershipId: created.membershipId,
          feeId: item.FeeId,
          name: item.Name ?? 'Fee',
          billFrequencyTypeId: item.BillFrequencyTypeId,
          originalPrice: item.OriginalPrice,
          price: item.Price,
          quantity: item.Quantity ?? 1,
          billFrequency: item.BillFrequency ?? 1,
          perBillAmount: item.PerBillAmount ?? feeItemTermAmount(item),
          revenueAccount: '4000 Dues',
        })),
      );
      // The history: applied, then what happened since.
      const steps: [string | null, string, string, string, string | null][] = [
        [null, 'pending', 'Applied', created.joinDate, null],
      ];
      if (status !== 'pending') steps.push(['pending', 'active', 'Paid', created.joinDate, null]);
      if (status === 'grace' || status === 'lapsed')
        steps.push(['active', 'grace', 'Term ended unpaid: grace', addDays(term.end, 1), null]);
      if (status === 'lapsed')
        steps.push(['grace', 'lapsed', 'Lapsed', addDays(term.end, type.graceDays + 1), null]);
      if (status === 'dropped')
        steps.push([
          'active',
          'dropped',
          'Dropped',
          addDays(today, -Math.floor(random() * 60)),
          created.dropReason,
        ]);
      await tx.insert(membershipHistory).values(
        steps.map(([from, to, event, day, reason]) => ({
          tenantId,
          membershipId: created.membershipId,
          contactId: created.contactId,
          fromStatus: from,
          toStatus: to,
          event,
          changedOn: day,
          reason,
          changedBy: event === 'Dropped' || event === 'Applied' ? 'Dana Staff' : 'System',
        })),
      );
      const last = steps[steps.length - 1];
      if (last)
        await tx
          .update(memberships)
          .set({ statusDate: last[3] })
          .where(sql`tenant_id = ${tenantId} and membership_id = ${created.membershipId}`);
    }
    // Organisations' memberships cover a few of the people (their staff) as secondary members.
    const orgMemberships = rowsOf<{ membership_id: number; term_start: string | null }>(
      await tx.execute(sql`select membership_id, term_start::text as term_start from memberships
        where tenant_id = ${tenantId} and membership_type_id = ${organisation.membershipTypeId}
          and status in ('active', 'grace') order by membership_id`),
    );
    const staffPool = rowsOf<{ contact_id: number; display_name: string }>(
      await tx.execute(sql`select contact_id, display_name from contacts
        where tenant_id = ${tenantId} and not is_deleted and contact_type = 'individual'
        order by contact_id desc limit 60`),
    );
    let next = 0;
    for (const org of orgMemberships) {
      const count = 1 + Math.floor(random() * 4);
      const covered: { contact_id: number; display_name: string }[] = [];
      for (let i = 0; i < count && next < staffPool.length; i++) {
        const c = staffPool[next++];
        if (c) covered.push(c);
      }
      if (covered.length === 0) break;
      await tx.insert(membershipMembers).values(
        covered.map((c) => ({
          tenantId,
          membershipId: org.membership_id,
          contactId: c.contact_id,
          contactName: c.display_name,
          addedOn: org.term_start ?? today,
          addedBy: 'Dana Staff',
        })),
      );
    }
  });
}
