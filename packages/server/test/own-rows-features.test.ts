/**
 * The member area's own rows across the features (decision 0183): two members of one association each see only their
 * own profile, custom values, account, invoices, registrations and memberships; and every such route reads the
 * caller's contact from the pipeline (`ownContactId`, the module's `callerContact`), not from a lookup of its own:
 * when the module names another contact for a sign-in, every route follows it.
 */
import { createUser } from '@guildhall/db/seed/factories';
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { features } from '../src/features/index.ts';
import type { FeatureModule } from '../src/platform/feature-module.ts';
import {
  type Api,
  future,
  type Model,
  save,
  signedIn,
  type TwoAssociations,
  twoAssociations,
} from './fixtures/api.ts';
import { memberContact } from './fixtures/contacts.ts';
import { firstOccurrence, saveEvent } from './fixtures/events.ts';
import { unique } from './helpers.ts';

/**
 * The contact the test says a sign-in names, in place of the contacts module's (`contacts.user_id`) while set.
 * A handler that looked its caller's contact up itself would not follow it.
 */
let named: ((userId: number) => number | null) | null = null;
const modules = features.map<FeatureModule>((m) => {
  const own = m.callerContact;
  return own
    ? { ...m, callerContact: (tx, auth) => (named ? Promise.resolve(named(auth.userId)) : own(tx, auth)) }
    : m;
});

interface Member {
  api: Api;
  userId: number;
  contactId: number;
  grade: string;
  membershipId: number;
  invoiceId: number;
  attendeeId: number;
}

let base: TwoAssociations;
let ann: Member;
let ben: Member;
let gradeField = 0;

beforeAll(async () => {
  base = await twoAssociations({}, { modules });
  const { ctx, t } = base;
  const admin = await signedIn(ctx.app, t.admin);
  const staff = await signedIn(ctx.app, t.staff);
  const second = await createUser(ctx.database.db, {
    tenantId: t.tenant.id,
    username: unique('member.'),
    password: 'member-password-2026',
    role: 'member',
  });
  const grade = await admin.post('/api/custom-fields', {
    Entity: 'Contact',
    Name: 'Grade',
    CustomFieldDataTypeId: T.Text,
    Visibility: 'memberRead',
    PageNumber: 30,
  });
  expect(grade.statusCode, grade.body).toBe(201);
  gradeField = grade.json().CustomFieldId;
  const type = await save(staff, '/api/memberships/types/typeSave', {
    Name: 'Individual',
    TermKind: 'anniversary',
    DurationMonths: 12,
    GraceDays: 30,
    RenewalDaysBefore: 30,
    IsActive: true,
  });
  const level = await save(staff, '/api/memberships/levels/levelSave', {
    MembershipTypeId: type.MembershipTypeId,
    Name: 'Regular',
    SortOrder: 1,
  });
  await save(staff, '/api/memberships/fees/feeSave', {
    MembershipTypeId: type.MembershipTypeId,
    FeeId: 1,
    Name: 'Annual dues',
    OriginalPrice: 10_000,
    BillFrequencyTypeId: 12,
  });
  await save(staff, '/api/memberships/frequencies/frequencySave', {
    MembershipTypeId: type.MembershipTypeId,
    BillFrequencyTypeId: 12,
    Name: 'Annually',
    IsDefault: true,
  });
  const event = await saveEvent(staff, {
    Name: 'Members evening',
    Visibility: 'members',
    StartsAt: future(15),
    EndsAt: future(15, 23, 59),
    Capacity: 10,
  });
  const detailId = await firstOccurrence(staff, event.EventId);

  const make = async (user: { id: number; username: string; password: string }, FirstName: string) => {
    const contactId = await memberContact(ctx, { ...t, member: { ...t.member, id: user.id } }, staff, {
      FirstName,
      LastName: 'Own',
    });
    const gradeValue = `${FirstName} grade`;
    const values = await staff.put(`/api/custom-fields/values/Contact/${contactId}`, {
      Values: { [gradeField]: gradeValue },
    });
    expect(values.statusCode, values.body).toBe(200);
    const joined = await staff.post('/api/memberships/join', {
      ContactId: contactId,
      MembershipTypeId: type.MembershipTypeId,
      MembershipLevelId: level.MembershipLevelId,
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const api = await signedIn(ctx.app, user);
    const reg = await api.post('/api/events/member/register', { EventDetailId: detailId });
    expect(reg.statusCode, reg.body).toBe(200);
    return {
      api,
      userId: user.id,
      contactId,
      grade: gradeValue,
      membershipId: joined.json().MembershipId as number,
      invoiceId: joined.json().InvoiceId as number,
      attendeeId: reg.json().Attendees[0].AttendeeId as number,
    };
  };
  ann = await make(t.member, 'Ann');
  ben = await make(second, 'Ben');
}, 300_000);
afterAll(() => base?.ctx.close());

/** What the member area shows `who` of its own rows, one value per feature. */
async function ownRows(who: Member) {
  const profile = await who.api.get('/api/mic/Contact/MyProfile');
  const custom = await who.api.get('/api/custom-fields/my-profile');
  const account = await who.api.get('/api/billing/member/account');
  const registrations = await who.api.get('/api/events/member/registrations');
  const memberships = await who.api.get('/api/mic/memberships');
  return {
    profile: profile.statusCode === 200 ? profile.json().FirstName : profile.statusCode,
    grade: custom.statusCode === 200 ? custom.json().Values[gradeField] : custom.statusCode,
    account: account.json().contactId,
    accountInvoices: (account.json().invoices as Model[]).map((i) => i.invoiceId),
    registrations:
      registrations.statusCode === 200
        ? (registrations.json() as Model[]).map((r) => r.AttendeeId)
        : registrations.statusCode,
    memberships: (memberships.json().Memberships as Model[]).map((m) => m.MembershipId),
  };
}

function rowsOf(m: Member, FirstName: string) {
  return {
    profile: FirstName,
    grade: m.grade,
    account: m.contactId,
    accountInvoices: [m.invoiceId],
    registrations: [m.attendeeId],
    memberships: [m.membershipId],
  };
}

describe("the member area's own rows", { timeout: 180_000 }, () => {
  it('two members of one association each see only their own rows', async () => {
    expect(await ownRows(ann)).toEqual(rowsOf(ann, 'Ann'));
    expect(await ownRows(ben)).toEqual(rowsOf(ben, 'Ben'));
    // One's invoice, registration and membership are not the other's to open, pay, cancel or change.
    expect((await ann.api.get(`/api/billing/member/invoices/${ann.invoiceId}`)).statusCode).toBe(200);
    expect((await ann.api.get(`/api/billing/member/invoices/${ben.invoiceId}`)).statusCode).toBe(404);
    expect(
      (await ann.api.put(`/api/mic/memberships/${ben.membershipId}/autopay`, { AutoPay: true })).statusCode,
    ).toBe(404);
    expect(
      (await ann.api.post(`/api/events/member/registrations/${ben.attendeeId}/accept`)).statusCode,
    ).toBeGreaterThanOrEqual(400);
  });

  it('every own-rows route reads the contact the pipeline names, not one it looks up itself', async () => {
    // The module now names Ben's contact for Ann's sign-in, and none for Ben's.
    named = (userId) => (userId === ann.userId ? ben.contactId : null);
    try {
      expect(await ownRows(ann)).toEqual(rowsOf(ben, 'Ben'));
      expect((await ann.api.get(`/api/billing/member/invoices/${ben.invoiceId}`)).statusCode).toBe(200);
      expect((await ann.api.get(`/api/billing/member/invoices/${ann.invoiceId}`)).statusCode).toBe(404);
      const autopay = await ann.api.put(`/api/mic/memberships/${ben.membershipId}/autopay`, {
        AutoPay: true,
      });
      expect(autopay.statusCode, autopay.body).toBe(200);
      // A sign-in the module names no contact for: refused where a contact is needed, nothing of anyone's elsewhere.
      expect(await ownRows(ben)).toEqual({
        profile: 403,
        grade: 403,
        account: 0,
        accountInvoices: [],
        registrations: 403,
        memberships: [],
      });
      expect((await ben.api.get(`/api/billing/member/invoices/${ben.invoiceId}`)).statusCode).toBe(404);
    } finally {
      named = null;
    }
  });
});
