/**
 * Certification programmes through the API: a registration's progress follows the credits its contact earns by
 * checking in at events within its period (and loses them when a check-in is undone), completion, one registration
 * per contact and programme, another association's programme refused, and a member sees only their own progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, future, type Model, save } from '../../../test/fixtures/api.ts';
import { saveContact as saveContactBy, withMemberContact } from '../../../test/fixtures/contacts.ts';
import { firstOccurrence, saveEvent } from '../../../test/fixtures/events.ts';
import type { TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
let staff: Api;
let member: Api;
let otherStaff: Api;
let memberContactId: number;

const PROGRAMME = '/api/events/certifications/programmeSave';
const REGISTRATION = '/api/events/certification-registrations/certificationRegistrationSave';

const saveContact = (model: Model) => saveContactBy(staff, model);

/** An event worth `credits`, and the contact registered for its occurrence: answers the attendee and occurrence. */
async function attendance(contactId: number, name: string, credits: number) {
  const event = await saveEvent(staff, {
    Name: name,
    TimezoneId: 'America/Chicago',
    WaitlistEnabled: true,
    StartsAt: future(2, 15),
    EndsAt: future(2, 17),
    CreditHours: credits,
  });
  const detailId = await firstOccurrence(staff, event.EventId);
  const reg = await staff.post('/api/events/registrations', {
    EventDetailId: detailId,
    ContactId: contactId,
    Attendees: [{ ContactId: contactId }],
  });
  expect(reg.statusCode, reg.body).toBe(200);
  return { detailId, attendeeId: Number(reg.json().Attendees[0].AttendeeId) };
}
const checkIn = async (a: { detailId: number; attendeeId: number }, undo = false) => {
  const res = await staff.post('/api/events/check-in', {
    EventDetailId: a.detailId,
    AttendeeId: a.attendeeId,
    ...(undo ? { Undo: true } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
};
const registration = async (id: unknown) => {
  const res = await staff.post('/api/events/certification-registrations/certificationRegistrationGet', {
    id,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Model;
};

beforeAll(async () => {
  ({ ctx, staff, member, otherStaff, memberContactId } = await withMemberContact({
    FirstName: 'Mia',
    LastName: 'Member',
    Email: 'mia@example.org',
  }));
}, 60_000);
afterAll(() => ctx?.close());

describe('certification programmes', () => {
  it('counts the credits of check-ins in the period, completes, and takes credits back when a check-in is undone', async () => {
    const programme = await save(staff, PROGRAMME, {
      Name: 'Certified Ethics Officer',
      RequiredCredits: 5,
      PeriodMonths: 12,
    });
    expect(programme.StaffOnly).toBe(false);
    const carl = Number((await saveContact({ FirstName: 'Carl', LastName: 'Credits' })).ContactId);
    const first = await attendance(carl, 'Ethics seminar', 3);
    await checkIn(first); // earned before the registration, within its period: it counts
    const reg = await save(staff, REGISTRATION, { ProgrammeId: programme.ProgrammeId, ContactId: carl });
    expect(reg).toMatchObject({ RequiredCredits: 5 });
    const today = new Date().toISOString().slice(0, 10);
    let now = await registration(reg.CertificationRegistrationId);
    expect(now).toMatchObject({ CreditsEarned: 3, Status: 'in-progress', CompletedAt: null });
    expect(String(now.StartsOn).slice(0, 10)).toBe(today);
    expect(String(now.EndsOn).slice(0, 10) > today).toBe(true);

    const second = await attendance(carl, 'Governance workshop', 2);
    await checkIn(second);
    now = await registration(reg.CertificationRegistrationId);
    expect(now).toMatchObject({ CreditsEarned: 5, Status: 'completed' });
    expect(now.CompletedAt).toEqual(expect.any(String));

    await checkIn(second, true);
    now = await registration(reg.CertificationRegistrationId);
    expect(now).toMatchObject({ CreditsEarned: 3, Status: 'in-progress', CompletedAt: null });

    // A registration whose period starts later does not count today's credits.
    const later = await save(staff, PROGRAMME, {
      Name: 'Board Leadership',
      RequiredCredits: 2,
      PeriodMonths: 6,
    });
    const next = await save(staff, REGISTRATION, {
      ProgrammeId: later.ProgrammeId,
      ContactId: carl,
      StartsOn: future(40, 0).slice(0, 10),
    });
    expect((await registration(next.CertificationRegistrationId)).CreditsEarned).toBe(0);

    // Once per contact and programme, with a message on the field.
    const twice = await staff.post(REGISTRATION, { ProgrammeId: programme.ProgrammeId, ContactId: carl });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('This contact is already registered in this programme.');
  });

  it("refuses another association's programme, and another association sees none of these registrations", async () => {
    // Ids are numbered per association: theirs is an id this association has no programme under.
    let theirs: Model = {};
    for (let i = 0; i < 4; i++)
      theirs = await save(otherStaff, PROGRAMME, {
        Name: `Their programme ${i}`,
        RequiredCredits: 4,
        PeriodMonths: 12,
      });
    const ours = await staff.post('/api/events/certifications/programmeGet', { id: theirs.ProgrammeId });
    expect(ours.statusCode).toBe(404);
    expect(
      (await otherStaff.post('/api/events/certifications/programmeGet', { id: theirs.ProgrammeId }))
        .statusCode,
    ).toBe(200);
    const dora = Number((await saveContact({ FirstName: 'Dora', LastName: 'Elsewhere' })).ContactId);
    const refused = await staff.post(REGISTRATION, { ProgrammeId: theirs.ProgrammeId, ContactId: dora });
    expect(refused.statusCode).toBe(400);
    const list = await otherStaff.post(
      '/api/events/certification-registrations/certificationRegistrationData?$top=100',
      { Id: 9999, Criteria: [] },
    );
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { Results: Model[] }).Results).toEqual([]);
    expect(
      (await member.post(PROGRAMME, { Name: 'Mine', RequiredCredits: 1, PeriodMonths: 1 })).statusCode,
    ).toBe(403);
  });

  it('a member registers in an open programme and sees only their own progress', async () => {
    const open = await save(staff, PROGRAMME, {
      Name: 'Continuing Practice',
      RequiredCredits: 4,
      PeriodMonths: 24,
    });
    const closed = await save(staff, PROGRAMME, {
      Name: 'Invitation only',
      RequiredCredits: 4,
      PeriodMonths: 24,
      StaffOnly: true,
    });
    // Someone else's progress in the open programme.
    const ed = Number((await saveContact({ FirstName: 'Ed', LastName: 'Other' })).ContactId);
    await save(staff, REGISTRATION, { ProgrammeId: open.ProgrammeId, ContactId: ed });

    const mine = await attendance(memberContactId, 'Practice evening', 2);
    await checkIn(mine);
    let list = await member.get('/api/events/member/certifications');
    expect(list.statusCode, list.body).toBe(200);
    const names = (list.json() as Model[]).map((p) => p.Name);
    expect(names).toContain('Continuing Practice');
    expect(names).not.toContain('Invitation only');
    expect((list.json() as Model[]).every((p) => p.Registration === null)).toBe(true);

    expect(
      (await member.post(`/api/events/member/certifications/${closed.ProgrammeId}/register`)).statusCode,
    ).toBe(404);
    const done = await member.post(`/api/events/member/certifications/${open.ProgrammeId}/register`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().message).toBe('You are registered in Continuing Practice.');
    list = await member.get('/api/events/member/certifications');
    const entry = (list.json() as Model[]).find((p) => p.ProgrammeId === open.ProgrammeId);
    expect(entry?.Registration).toMatchObject({
      CreditsEarned: 2,
      RequiredCredits: 4,
      Status: 'in-progress',
    });
    expect(
      (await member.post(`/api/events/member/certifications/${open.ProgrammeId}/register`)).statusCode,
    ).toBe(400);
    // The staff screens are not the member's.
    expect(
      (await member.post('/api/events/certification-registrations/certificationRegistrationData', { Id: 1 }))
        .statusCode,
    ).toBe(403);
  });
});
