/** Wire shapes of the memberships feature's own routes (join, price preview, lifecycle, renewal run). */
import { z } from 'zod';

const id = z.number().int().positive();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A day as yyyy-MM-dd.');

export const membershipChoiceSchema = z.object({
  MembershipTypeId: id,
  MembershipLevelId: id.nullish(),
  ChapterId: id.nullish(),
  /** A recurring frequency the type offers; the type's default when absent. */
  BillFrequencyTypeId: z.number().int().nullish(),
  /** Units for formula-based pricing (employees, revenue). */
  Units: z.union([z.number(), z.string().max(30)]).nullish(),
  /** The day the membership starts (today in the association's timezone when absent). */
  JoinDate: day.nullish(),
});
export type MembershipChoice = z.infer<typeof membershipChoiceSchema>;

export const membershipPriceItemSchema = z.object({
  FeeId: z.number().int().nullable(),
  Name: z.string(),
  BillFrequencyTypeId: z.number().int(),
  OriginalPrice: z.number().int(),
  Price: z.number().int(),
  Quantity: z.number().int(),
  BillFrequency: z.number().int(),
  PerBillAmount: z.number().int(),
  /** What this fee adds to the first invoice (prorated when the term is). */
  FirstBillAmount: z.number().int(),
  RevenueAccount: z.string().nullable(),
});

export const membershipPriceSchema = z.object({
  Name: z.string(),
  MembershipLevelId: z.number().int().nullable(),
  BillFrequencyTypeId: z.number().int(),
  TermStart: day,
  TermEnd: day,
  Proration: z.object({ numerator: z.number().int(), denominator: z.number().int() }),
  FeeItems: z.array(membershipPriceItemSchema),
  Bills: z.array(z.number().int()),
  TermTotal: z.number().int(),
  FirstBill: z.number().int(),
  UnpricedFeeIds: z.array(z.number().int()),
});
export type MembershipQuote = z.infer<typeof membershipPriceSchema>;

export const joinMembershipSchema = membershipChoiceSchema.extend({
  ContactId: id,
  AutoPay: z.boolean().nullish(),
  Notes: z.string().max(5000).nullish(),
});
export type JoinMembership = z.infer<typeof joinMembershipSchema>;

export const joinAnswerSchema = z.object({
  MembershipId: z.number().int(),
  Status: z.string(),
  InvoiceId: z.number().int().nullable(),
  Price: membershipPriceSchema,
});

export const transitionBodySchema = z.object({ Reason: z.string().trim().max(500).nullish() });

export const membershipStateSchema = z.object({
  MembershipId: z.number().int(),
  Status: z.string(),
  StatusDate: z.string(),
  TermStart: z.string().nullable(),
  TermEnd: z.string().nullable(),
  DropReason: z.string().nullable(),
  /** The staff actions the new status offers. */
  Actions: z.array(z.string()),
});

/** What the join wizard chooses from: the open types with their levels, chapters and frequencies. */
export const membershipOptionsSchema = z.object({
  Types: z.array(
    z.object({
      MembershipTypeId: z.number().int(),
      Name: z.string(),
      Description: z.string().nullable(),
      IsOrganization: z.boolean(),
      FormulaBasedPricing: z.boolean(),
      Levels: z.array(z.object({ MembershipLevelId: z.number().int(), Name: z.string() })),
      Frequencies: z.array(
        z.object({ BillFrequencyTypeId: z.number().int(), Name: z.string(), IsDefault: z.boolean() }),
      ),
    }),
  ),
  Chapters: z.array(z.object({ ChapterId: z.number().int(), Name: z.string() })),
});
export type MembershipOptions = z.infer<typeof membershipOptionsSchema>;

export const membershipCountsSchema = z.object({
  Active: z.number().int(),
  RenewalsDue30: z.number().int(),
  LapsedThisMonth: z.number().int(),
  ByStatus: z.array(z.object({ Status: z.string(), Count: z.number().int() })),
});
export type MembershipCounts = z.infer<typeof membershipCountsSchema>;

/** The member area's view of one's own membership. */
export const myMembershipSchema = z.object({
  MembershipId: z.number().int(),
  Name: z.string(),
  Status: z.string(),
  StatusDate: z.string(),
  TermStart: z.string().nullable(),
  TermEnd: z.string().nullable(),
  BillFrequencyTypeId: z.number().int(),
  TermTotal: z.number().int(),
  AutoPay: z.boolean(),
  Fees: z.array(
    z.object({
      Name: z.string(),
      BillFrequencyTypeId: z.number().int(),
      Price: z.number().int(),
      PerBillAmount: z.number().int(),
    }),
  ),
  /** The open invoice of the membership (its renewal), if any: what "Renew now" pays. */
  OpenInvoiceId: z.number().int().nullable(),
  OpenAmount: z.number().int().nullable(),
  /** A secondary member's: the organisation whose membership covers them (it pays; they have member access). */
  CoveredBy: z.string().nullable().optional(),
});
export const myMembershipsSchema = z.object({ Memberships: z.array(myMembershipSchema) });
export type MyMembership = z.infer<typeof myMembershipSchema>;
export const autoPayBodySchema = z.object({ AutoPay: z.boolean() });

export const renewalPreviewSchema = z.object({
  Today: z.string(),
  /** Memberships whose renewal invoice the run would make now. */
  Due: z.number().int(),
  /** Renewal invoices made in the last day (the run's progress). */
  Invoiced: z.number().int(),
  Rows: z.array(
    z.object({
      MembershipId: z.number().int(),
      ContactName: z.string(),
      Name: z.string(),
      TermEnd: z.string(),
      NextTermStart: z.string(),
      CurrentTotal: z.number().int(),
      NewTotal: z.number().int(),
      Invoice: z.number().int(),
    }),
  ),
});
export type RenewalPreview = z.infer<typeof renewalPreviewSchema>;

/** A renewal run (the renewal run screen): its state, and what it did so far. */
export const renewalRunSchema = z.object({
  RunId: z.number().int(),
  Status: z.enum(['running', 'done', 'failed']),
  RunDay: z.string(),
  StartedBy: z.string().nullable(),
  StartedAt: z.string(),
  FinishedAt: z.string().nullable(),
  /** Renewal invoices made (live while it runs). */
  Invoiced: z.number().int(),
  /** Autopay charges asked of the billing gateway. */
  Charged: z.number().int(),
  /** Memberships the calendar moved to grace or lapsed. */
  Moved: z.number().int(),
  /** Renewal reminders mailed. */
  Reminded: z.number().int(),
  Error: z.string().nullable(),
});
export type RenewalRun = z.infer<typeof renewalRunSchema>;

export const renewalRunsSchema = z.object({ Runs: z.array(renewalRunSchema) });

/** A run with the renewal invoices it made. */
export const renewalRunDetailSchema = z.object({
  Run: renewalRunSchema,
  Invoices: z.array(
    z.object({
      MembershipId: z.number().int(),
      ContactName: z.string(),
      Name: z.string(),
      TermStart: z.string(),
      TermEnd: z.string(),
      InvoiceId: z.number().int().nullable(),
      Amount: z.number().int(),
      State: z.string(),
    }),
  ),
});
export type RenewalRunDetail = z.infer<typeof renewalRunDetailSchema>;

/** An upgrade or downgrade mid-term: the new type, level, chapter or frequency (unchanged when absent). */
export const membershipChangeSchema = z.object({
  MembershipTypeId: id.nullish(),
  MembershipLevelId: id.nullish(),
  ChapterId: id.nullish(),
  BillFrequencyTypeId: z.number().int().nullish(),
});
export type MembershipChange = z.infer<typeof membershipChangeSchema>;

/** What a change does to the money (credit note for the unused old term, invoice for the new), before or after. */
export const membershipChangeAnswerSchema = z.object({
  MembershipId: z.number().int(),
  FromName: z.string(),
  ToName: z.string(),
  Direction: z.enum(['upgrade', 'downgrade', 'same price']),
  OldTermTotal: z.number().int(),
  NewTermTotal: z.number().int(),
  TermStart: z.string(),
  TermEnd: z.string(),
  DaysLeft: z.number().int(),
  DaysInTerm: z.number().int(),
  CreditCents: z.number().int(),
  ChargeCents: z.number().int(),
  NetCents: z.number().int(),
  /** Made by the change (null in a preview, or when nothing was owed). */
  CreditId: z.number().int().nullable(),
  InvoiceId: z.number().int().nullable(),
  message: z.string(),
});
export type MembershipChangeAnswer = z.infer<typeof membershipChangeAnswerSchema>;

/** An organisation's secondary members (SecondaryMemberList) and how many its level allows (null: no limit). */
export const secondaryMembersSchema = z.object({
  MembershipId: z.number().int(),
  IsOrganization: z.boolean(),
  PrimaryContactId: z.number().int(),
  PrimaryName: z.string(),
  Limit: z.number().int().nullable(),
  Members: z.array(
    z.object({
      ContactId: z.number().int(),
      ContactName: z.string(),
      AddedOn: z.string(),
      AddedBy: z.string().nullable(),
    }),
  ),
});
export type SecondaryMembers = z.infer<typeof secondaryMembersSchema>;
export const addSecondaryMemberSchema = z.object({ ContactId: id });

/** The public join form: who joins (matched by email, or a new contact) and the membership chosen. */
export const publicJoinSchema = membershipChoiceSchema.omit({ JoinDate: true }).extend({
  FirstName: z.string().trim().min(1, 'Enter your first name.').max(100),
  LastName: z.string().trim().min(1, 'Enter your last name.').max(100),
  Email: z.string().trim().email('Enter a valid email address.').max(254),
  Organization: z.string().trim().max(200).nullish(),
});
export type PublicJoin = z.infer<typeof publicJoinSchema>;
export const publicJoinAnswerSchema = z.object({
  MembershipId: z.number().int(),
  Status: z.string(),
  InvoiceId: z.number().int().nullable(),
  InvoiceNumber: z.string().nullable(),
  FirstBill: z.number().int(),
  message: z.string(),
});
export type PublicJoinAnswer = z.infer<typeof publicJoinAnswerSchema>;
/** What the public join page offers: the association's name and its open types. */
export const publicJoinOptionsSchema = membershipOptionsSchema.extend({
  Association: z.string(),
  /** The association's currency (ISO 4217), for the prices the page shows. */
  Currency: z.string(),
});
export type PublicJoinOptions = z.infer<typeof publicJoinOptionsSchema>;
