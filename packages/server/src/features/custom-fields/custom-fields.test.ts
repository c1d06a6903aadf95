/**
 * Custom fields through the API: definitions (setup permission), choices, the type change's dry run and apply,
 * values checked against their type, required fields on the pages the branches go through, member visibility and
 * tenant isolation.
 */
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  uploadFile,
} from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let admin: ReturnType<typeof client>;
let staff: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
let staffCookie: string;
const contactsBase = '/api/contacts/contacts';

async function newContact(LastName: string): Promise<number> {
  const res = await admin.post(`${contactsBase}/contactSave`, {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Mo',
    LastName,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data.ContactId;
}

async function define(body: Record<string, unknown>) {
  const res = await admin.post('/api/custom-fields', { Entity: 'Contact', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const values = (recordId: number) => `/api/custom-fields/values/Contact/${recordId}`;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  staffCookie = (await signIn(ctx.app, t.staff)).cookie;
  staff = client(ctx.app, staffCookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
});
afterAll(() => ctx.close());

describe('custom field definitions', () => {
  it('lists the entities that opted in, and lets only the setup permission define fields', async () => {
    const entities = (await staff.get('/api/custom-fields/entities')).json();
    expect(entities).toContainEqual({ Entity: 'Contact', Title: 'Contacts' });
    expect(entities).toContainEqual({ Entity: 'Membership', Title: 'Memberships' });
    const refused = await staff.post('/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Shirt size',
      CustomFieldDataTypeId: T.Text,
    });
    expect(refused.statusCode).toBe(403);
    expect((await member.get('/api/custom-fields?entity=Contact')).statusCode).toBe(403);
    const unknown = await admin.post('/api/custom-fields', {
      Entity: 'Spaceship',
      Name: 'x',
      CustomFieldDataTypeId: 1,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Spaceship records do not take custom fields.');
  });

  it('numbers new choices, adds the hidden undeletable Other to a fill-in, and keeps removed choices as deleted', async () => {
    const f = await define({
      Name: 'How did you hear of us',
      CustomFieldDataTypeId: T.DropdownWithFillIn,
      SelectListItems: [
        { Id: 0, Name: 'A friend' },
        { Id: 0, Name: 'Newsletter' },
      ],
    });
    expect(f.SelectListItems).toEqual([
      { Id: 1, Name: 'A friend', GoTo: null, DisableUpdate: false, IsHidden: false, isDeleted: false },
      { Id: 2, Name: 'Newsletter', GoTo: null, DisableUpdate: false, IsHidden: false, isDeleted: false },
      { Id: 3, Name: 'Other', GoTo: null, DisableUpdate: true, IsHidden: true, isDeleted: false },
    ]);
    // Rename one, drop one, try to rename and delete the built-in Other, add one; reorder.
    const saved = await admin.put(`/api/custom-fields/${f.CustomFieldId}`, {
      ...f,
      SelectListItems: [
        { Id: 0, Name: 'Search engine' },
        { Id: 1, Name: 'A colleague' },
        { Id: 3, Name: 'Something else', isDeleted: true },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      saved
        .json()
        .SelectListItems.map((c: { Id: number; Name: string; isDeleted: boolean }) => [
          c.Id,
          c.Name,
          c.isDeleted,
        ]),
    ).toEqual([
      [4, 'Search engine', false],
      [1, 'A colleague', false],
      [3, 'Other', false],
      [2, 'Newsletter', true],
    ]);
    const savedField = saved.json() as { SelectListItems: unknown[] };
    const clash = await admin.put(`/api/custom-fields/${f.CustomFieldId}`, {
      ...savedField,
      SelectListItems: [...savedField.SelectListItems, { Id: 0, Name: 'a colleague' }],
    });
    expect(clash.statusCode).toBe(400);
    const stale = await admin.put(`/api/custom-fields/${f.CustomFieldId}`, { ...f, Name: 'Late' });
    expect(stale.statusCode).toBe(409);
  });

  it('resets a yes/no field to Yes and No, and clears branches to pages before the field', async () => {
    const f = await define({
      Name: 'Attending the AGM',
      CustomFieldDataTypeId: T.YesNo,
      PageNumber: 2,
      SelectListItems: [{ Id: 0, Name: 'Maybe' }],
    });
    expect(f.SelectListItems.map((c: { Name: string }) => c.Name)).toEqual(['Yes', 'No']);
    const branched = await admin.put(`/api/custom-fields/${f.CustomFieldId}`, {
      ...f,
      SelectListItems: [
        { ...f.SelectListItems[0], GoTo: 1 },
        { ...f.SelectListItems[1], GoTo: 3 },
      ],
    });
    expect(branched.json().SelectListItems.map((c: { GoTo: number | null }) => c.GoTo)).toEqual([null, 3]);
  });

  it('refuses a type change through a plain save, and a default the type does not take', async () => {
    const f = await define({ Name: 'Years in the trade', CustomFieldDataTypeId: T.Number });
    const res = await admin.put(`/api/custom-fields/${f.CustomFieldId}`, {
      ...f,
      CustomFieldDataTypeId: T.Text,
    });
    expect(res.statusCode).toBe(400);
    const bad = await admin.post('/api/custom-fields', {
      Entity: 'Contact',
      Name: 'Joined',
      CustomFieldDataTypeId: T.Date,
      DefaultValue: 'soon',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.DefaultValue).toBeDefined();
  });
});

describe('custom field values', () => {
  it('checks every data type on write and reads back what it stored', async () => {
    const id = await newContact('Typed');
    const make = (Name: string, CustomFieldDataTypeId: number, extra: Record<string, unknown> = {}) =>
      define({ Name, CustomFieldDataTypeId, PageNumber: 5, ...extra });
    const text = await make('Nickname', T.Text);
    const long = await make('Biography', T.MultiLineText);
    const num = await make('Boats owned', T.Number);
    const money = await make('Pledge', T.Currency);
    const day = await make('Certified on', T.Date);
    const at = await make('Last call', T.DateTime);
    const drop = await make('Region', T.Dropdown, {
      SelectListItems: [
        { Id: 0, Name: 'North' },
        { Id: 0, Name: 'South' },
      ],
    });
    const multi = await make('Interests', T.MultiChoice, {
      SelectListItems: [
        { Id: 0, Name: 'Sailing' },
        { Id: 0, Name: 'Rowing' },
      ],
    });
    const check = await make('Volunteer', T.Checkbox);
    const email = await make('Work email', T.Email);
    const phone = await make('Boat phone', T.Phone);
    const site = await make('Blog', T.Website);
    const file = await make('Certificate', T.FileUpload);
    const uploaded = await uploadFile(
      ctx.app,
      staffCookie,
      `/api/files/upload?contactId=${id}`,
      '%PDF-1.4\n%%EOF\n',
      'cert.pdf',
      'application/pdf',
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const upload = uploaded.json()[0];
    const good = {
      [text.CustomFieldId]: ' Mo ',
      [long.CustomFieldId]: 'Line one\nLine two',
      [num.CustomFieldId]: '3',
      [money.CustomFieldId]: '1,250.50',
      [day.CustomFieldId]: '2026-02-03',
      [at.CustomFieldId]: '2026-02-03T10:15:00Z',
      [drop.CustomFieldId]: 'south',
      [multi.CustomFieldId]: [2, 1],
      [check.CustomFieldId]: true,
      [email.CustomFieldId]: 'mo@example.org',
      [phone.CustomFieldId]: '+44 20 7946 0958',
      [site.CustomFieldId]: 'https://mo.example.org',
      [file.CustomFieldId]: upload,
    };
    const res = await staff.put(values(id), { Values: good });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json().Values;
    expect(v[text.CustomFieldId]).toBe('Mo');
    expect(v[num.CustomFieldId]).toBe(3);
    expect(v[money.CustomFieldId]).toBe(125050);
    expect(v[day.CustomFieldId]).toBe('2026-02-03');
    expect(v[at.CustomFieldId]).toBe('2026-02-03T10:15:00.000Z');
    expect(v[drop.CustomFieldId]).toBe(2);
    expect(v[multi.CustomFieldId]).toEqual([2, 1]);
    expect(v[check.CustomFieldId]).toBe(true);
    expect(v[file.CustomFieldId]).toMatchObject({ Name: 'cert.pdf', FileId: upload.FileId });
    expect((await staff.get(values(id))).json().Values).toEqual(v);

    const bad = await staff.put(values(id), {
      Values: {
        [num.CustomFieldId]: 'lots',
        [money.CustomFieldId]: 'a fortune',
        [day.CustomFieldId]: 'someday',
        [drop.CustomFieldId]: 'East',
        [multi.CustomFieldId]: [1, 99],
        [email.CustomFieldId]: 'nope',
        [phone.CustomFieldId]: 'call me',
        [file.CustomFieldId]: 'cert.pdf',
      },
    });
    expect(bad.statusCode).toBe(400);
    // A file of no such number (another association's, or deleted) is refused.
    const ghost = await staff.put(values(id), {
      Values: { [file.CustomFieldId]: { ...upload, FileId: upload.FileId + 1000 } },
    });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().message).toBe('Certificate: upload the file again.');
    expect(Object.keys(bad.json().errors).sort()).toEqual(
      [num, money, day, drop, multi, email, phone, file].map((f) => `cf_${f.CustomFieldId}`).sort(),
    );
    // Nothing of a refused save is written.
    expect((await staff.get(values(id))).json().Values[num.CustomFieldId]).toBe(3);
    // Clearing a value removes it.
    const cleared = await staff.put(values(id), { Values: { [text.CustomFieldId]: '' } });
    expect(cleared.json().Values[text.CustomFieldId]).toBeUndefined();
    // A value for a field of no such id is refused.
    expect((await staff.put(values(id), { Values: { 999999: 'x' } })).statusCode).toBe(400);
    expect((await staff.get(values(999999))).statusCode).toBe(404);
  });

  it('requires answers on the pages the branches go through, on the server', async () => {
    const id = await newContact('Branching');
    const q = await define({ Name: 'Member of a club', CustomFieldDataTypeId: T.YesNo, PageNumber: 10 });
    const yes = q.SelectListItems.find((c: { Name: string }) => c.Name === 'Yes');
    const no = q.SelectListItems.find((c: { Name: string }) => c.Name === 'No');
    // Yes skips page 11 (the reason for not being in a club) and goes to page 12.
    const branched = await admin.put(`/api/custom-fields/${q.CustomFieldId}`, {
      ...q,
      SelectListItems: [{ ...yes, GoTo: 12 }, no],
    });
    expect(branched.statusCode, branched.body).toBe(200);
    const why = await define({
      Name: 'Why not',
      CustomFieldDataTypeId: T.Text,
      PageNumber: 11,
      Required: true,
    });
    const club = await define({
      Name: 'Club or harbour',
      CustomFieldDataTypeId: T.Text,
      PageNumber: 12,
      Required: true,
    });
    const noClub = await staff.put(values(id), { Values: { [q.CustomFieldId]: no.Id } });
    expect(noClub.statusCode).toBe(400);
    expect(Object.keys(noClub.json().errors)).toEqual([
      `cf_${why.CustomFieldId}`,
      `cf_${club.CustomFieldId}`,
    ]);
    const yesClub = await staff.put(values(id), { Values: { [q.CustomFieldId]: yes.Id } });
    expect(Object.keys(yesClub.json().errors)).toEqual([`cf_${club.CustomFieldId}`]);
    const ok = await staff.put(values(id), {
      Values: { [q.CustomFieldId]: yes.Id, [club.CustomFieldId]: 'Harbour RC' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // Deleted, so that the other tests' records are not asked for them.
    for (const f of [q, club, why])
      expect((await admin.delete(`/api/custom-fields/${f.CustomFieldId}`)).statusCode).toBe(200);
  });

  it('shows a dry run of a type change, then applies it: kept, converted and lost values, nothing silently', async () => {
    const f = await define({ Name: 'Hull length', CustomFieldDataTypeId: T.Text, PageNumber: 20 });
    const a = await newContact('Aardvark');
    const b = await newContact('Badger');
    const c = await newContact('Crane');
    await staff.put(values(a), { Values: { [f.CustomFieldId]: '12' } });
    await staff.put(values(b), { Values: { [f.CustomFieldId]: 'about ten metres' } });
    await staff.put(values(c), { Values: { [f.CustomFieldId]: '9.5' } });
    const dry = await admin.post(`/api/custom-fields/${f.CustomFieldId}/type-change`, {
      CustomFieldDataTypeId: T.Number,
    });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ Total: 3, Kept: 0, Converted: 2, Lost: 1, Applied: false });
    expect(dry.json().Examples).toContainEqual({
      RecordId: b,
      RecordName: expect.stringContaining('Badger'),
      Before: 'about ten metres',
      After: null,
    });
    // The dry run changed nothing.
    expect((await staff.get(values(b))).json().Values[f.CustomFieldId]).toBe('about ten metres');
    expect(
      (await staff.get('/api/custom-fields?entity=Contact'))
        .json()
        .find((x: { CustomFieldId: number }) => x.CustomFieldId === f.CustomFieldId).CustomFieldDataTypeId,
    ).toBe(T.Text);
    expect(
      (
        await staff.post(`/api/custom-fields/${f.CustomFieldId}/type-change`, {
          CustomFieldDataTypeId: 3,
          Confirm: true,
        })
      ).statusCode,
    ).toBe(403);

    const applied = await admin.post(`/api/custom-fields/${f.CustomFieldId}/type-change`, {
      CustomFieldDataTypeId: T.Number,
      Confirm: true,
    });
    expect(applied.json()).toMatchObject({ Converted: 2, Lost: 1, Applied: true });
    expect((await staff.get(values(a))).json().Values[f.CustomFieldId]).toBe(12);
    expect((await staff.get(values(c))).json().Values[f.CustomFieldId]).toBe(9.5);
    expect((await staff.get(values(b))).json().Values[f.CustomFieldId]).toBeUndefined();
    // Values are checked against the type as it is now.
    expect((await staff.put(values(a), { Values: { [f.CustomFieldId]: 'long' } })).statusCode).toBe(400);

    // A dropdown to multi-choice keeps the answers' choices (converted to one-item lists).
    const d = await define({
      Name: 'Berth',
      CustomFieldDataTypeId: T.Dropdown,
      PageNumber: 20,
      SelectListItems: [
        { Id: 0, Name: 'East quay' },
        { Id: 0, Name: 'West quay' },
      ],
    });
    await staff.put(values(a), { Values: { [d.CustomFieldId]: 'West quay' } });
    const toMulti = await admin.post(`/api/custom-fields/${d.CustomFieldId}/type-change`, {
      CustomFieldDataTypeId: T.MultiChoice,
      Confirm: true,
    });
    expect(toMulti.json()).toMatchObject({ Converted: 1, Lost: 0 });
    expect((await staff.get(values(a))).json().Values[d.CustomFieldId]).toEqual([2]);
    const toFill = await admin.post(`/api/custom-fields/${d.CustomFieldId}/type-change`, {
      CustomFieldDataTypeId: T.DropdownWithFillIn,
    });
    expect(toFill.json().SelectListItems.map((x: { Name: string }) => x.Name)).toEqual([
      'East quay',
      'West quay',
      'Other',
    ]);
  });
});

describe('member visibility', () => {
  it('shows a member only fields members may see on their own record, and lets them edit only editable ones', async () => {
    const own = await newContact('Member');
    expect((await admin.put(`${contactsBase}/${own}/user`, { UserId: t.member.id })).statusCode).toBe(200);
    const secret = await define({ Name: 'Staff notes', CustomFieldDataTypeId: T.Text, PageNumber: 30 });
    const seen = await define({
      Name: 'Grade',
      CustomFieldDataTypeId: T.Text,
      Visibility: 'memberRead',
      PageNumber: 30,
    });
    const mine = await define({
      Name: 'Dietary needs',
      CustomFieldDataTypeId: T.Text,
      Visibility: 'memberEdit',
      PageNumber: 30,
    });
    await staff.put(values(own), {
      Values: {
        [secret.CustomFieldId]: 'Late payer',
        [seen.CustomFieldId]: 'Senior',
        [mine.CustomFieldId]: 'None',
      },
    });
    const profile = (await member.get('/api/custom-fields/my-profile')).json();
    const names = profile.Fields.map((f: { Name: string }) => f.Name);
    expect(names).toContain('Grade');
    expect(names).toContain('Dietary needs');
    expect(names).not.toContain('Staff notes');
    expect(JSON.stringify(profile)).not.toContain('Late payer');
    expect(profile.Editable).toEqual([mine.CustomFieldId]);

    const edited = await member.put('/api/custom-fields/my-profile', {
      Values: { [mine.CustomFieldId]: 'Vegetarian' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().Values[mine.CustomFieldId]).toBe('Vegetarian');
    const readOnly = await member.put('/api/custom-fields/my-profile', {
      Values: { [seen.CustomFieldId]: 'Master' },
    });
    expect(readOnly.statusCode).toBe(400);
    const hidden = await member.put('/api/custom-fields/my-profile', {
      Values: { [secret.CustomFieldId]: 'x' },
    });
    expect(hidden.statusCode).toBe(400);
    expect(JSON.stringify(hidden.json())).not.toContain('Late payer');
    expect((await staff.get(values(own))).json().Values[secret.CustomFieldId]).toBe('Late payer');
    // Staff routes are not the member's.
    expect((await member.get(values(own))).statusCode).toBe(403);
  });

  it('keeps each association to its own fields and values', async () => {
    const mineField = await define({ Name: 'Private to us', CustomFieldDataTypeId: T.Text, PageNumber: 40 });
    const id = await newContact('Isolated');
    await staff.put(values(id), { Values: { [mineField.CustomFieldId]: 'ours' } });
    const otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
    const theirs = (await otherAdmin.get('/api/custom-fields?entity=Contact')).json();
    expect(theirs.map((f: { Name: string }) => f.Name)).not.toContain('Private to us');
    expect((await otherAdmin.get(values(id))).statusCode).toBe(404);
    expect(
      (await otherAdmin.put(`/api/custom-fields/${mineField.CustomFieldId}`, mineField)).statusCode,
    ).toBe(404);
    expect(
      (
        await otherAdmin.post(`/api/custom-fields/${mineField.CustomFieldId}/type-change`, {
          CustomFieldDataTypeId: 1,
        })
      ).statusCode,
    ).toBe(404);
  });
});
