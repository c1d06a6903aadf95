/**
 * An event's image (an `image` field, decision 0092): staff upload a picture to the library and set it on the event;
 * the back office reads its thumbnail by the file's id, the member area and the public page get addresses of their
 * own that serve it only where the event may be seen (published; public for the page without a session). Another
 * association sees nothing, and a value that is not a file's id is refused with the field named.
 */
import sharp from 'sharp';
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

type Model = Record<string, unknown>;
let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let admin: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
let otherAdmin: ReturnType<typeof client>;
let adminCookie = '';
let fileId = 0;

const future = (days: number, hourUtc: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};

async function saveEvent(body: Model): Promise<Model> {
  const res = await admin.post('/api/events/events/eventSave', {
    Status: 'published',
    Visibility: 'public',
    RegistrationOpen: true,
    StartsAt: future(20, 17),
    EndsAt: future(20, 19),
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}

/** A landscape picture: blue with a red left third, 600x300. */
const picture = () =>
  sharp({ create: { width: 600, height: 300, channels: 3, background: '#1c4e80' } })
    .composite([
      { input: { create: { width: 200, height: 300, channels: 3, background: '#c0392b' } }, left: 0, top: 0 },
    ])
    .png()
    .toBuffer();

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  adminCookie = (await signIn(ctx.app, t.admin)).cookie;
  admin = client(ctx.app, adminCookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
  const uploaded = await uploadFile(
    ctx.app,
    adminCookie,
    '/api/images/Upload/0/0',
    await picture(),
    'gala.png',
    'image/png',
  );
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  fileId = (uploaded.json() as { FileId: number }).FileId;
});

afterAll(async () => {
  await ctx?.close();
});

describe('an event with an image', () => {
  it('keeps the library file on the event and shows its thumbnail to staff by the file id', async () => {
    const event = await saveEvent({ Name: 'Spring gala', ImageFileId: fileId });
    expect(event.ImageFileId).toBe(fileId);
    const got = await admin.post('/api/events/events/eventGet', { id: event.EventId });
    expect(got.statusCode, got.body).toBe(200);
    const model = (got.json() as { Data?: Model } & Model).Data ?? got.json();
    expect((model as Model).ImageFileId).toBe(fileId);

    const thumbnail = await admin.get(`/api/images/File/${fileId}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(thumbnail.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([150, 150]);
    const content = await admin.get(`/api/images/File/${fileId}/content`);
    expect(content.statusCode).toBe(200);
    expect((await sharp(content.rawPayload).metadata()).width).toBe(600);

    // The events list carries it as a column (the thumbnail is drawn from it).
    const list = await admin.post('/api/events/events/eventData?$top=10', {});
    expect(list.statusCode, list.body).toBe(200);
    const row = (list.json() as { Results: Model[] }).Results.find((r) => r.EventId === event.EventId);
    expect(row?.ImageFileId).toBe(fileId);

    // Members and other associations do not read the library by file id.
    expect((await member.get(`/api/images/File/${fileId}/thumbnail`)).statusCode).toBe(403);
    expect((await otherAdmin.get(`/api/images/File/${fileId}/thumbnail`)).statusCode).toBe(404);
  });

  it('refuses a value that is not a file id, naming the field', async () => {
    const res = await admin.post('/api/events/events/eventSave', {
      Name: 'Broken picture',
      Status: 'draft',
      Visibility: 'public',
      StartsAt: future(21, 17),
      EndsAt: future(21, 19),
      ImageFileId: 'gala.png',
    });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { errors: Record<string, string[]> }).errors.ImageFileId).toEqual([
      'Image: choose an image of the library.',
    ]);
  });

  it("serves the image on the member's event page and the public page, and nowhere else", async () => {
    const event = await saveEvent({ Name: 'Harbour walk', ImageFileId: fileId });
    const eventId = Number(event.EventId);
    const page = await member.get(`/api/events/member/events/${eventId}`);
    expect(page.statusCode, page.body).toBe(200);
    const image = (page.json() as { Image: { Url: string; ThumbnailUrl: string } | null }).Image;
    expect(image).not.toBeNull();
    const shown = await member.get(image?.Url ?? '');
    expect(shown.statusCode).toBe(200);
    expect((await sharp(shown.rawPayload).metadata()).width).toBe(600);
    const thumb = await member.get(image?.ThumbnailUrl ?? '');
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(150);

    // The public page, without a session.
    const hash = String(event.HashedEventId);
    const publicPage = await ctx.app.inject({
      method: 'GET',
      url: `/api/events/public/${t.tenant.id}/${hash}`,
    });
    expect(publicPage.statusCode, publicPage.body).toBe(200);
    const publicImage = (publicPage.json() as { Image: { Url: string } | null }).Image;
    expect(publicImage?.Url).toMatch(new RegExp(`^/api/events/public/${t.tenant.id}/${hash}/image`));
    const anonymous = await ctx.app.inject({ method: 'GET', url: publicImage?.Url ?? '' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['cache-control']).toBe('public, max-age=300');
    // Another association's id with this event's hash finds nothing.
    const elsewhere = await ctx.app.inject({
      method: 'GET',
      url: `/api/events/public/${other.tenant.id}/${hash}/image`,
    });
    expect(elsewhere.statusCode).toBe(404);

    // A members-only event: the member sees its image, the page without a session does not.
    await saveEvent({ ...event, Visibility: 'members' });
    expect((await member.get(image?.Url ?? '')).statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/events/public/${t.tenant.id}/${hash}/image` }))
        .statusCode,
    ).toBe(404);

    // A draft: nobody outside the back office.
    const draft = await saveEvent({ Name: 'Not yet announced', Status: 'draft', ImageFileId: fileId });
    expect((await member.get(`/api/events/member/events/${Number(draft.EventId)}/image`)).statusCode).toBe(
      404,
    );

    // An event without an image says so and serves none.
    const plain = await saveEvent({ Name: 'Plain meeting' });
    const plainPage = await member.get(`/api/events/member/events/${Number(plain.EventId)}`);
    expect((plainPage.json() as { Image: unknown }).Image).toBeNull();
    expect((await member.get(`/api/events/member/events/${Number(plain.EventId)}/image`)).statusCode).toBe(
      404,
    );
  });

  it("refuses an id of another association's file (the image must be one of the association's files)", async () => {
    const theirs = await otherAdmin.post('/api/events/events/eventSave', {
      Name: 'Borrowed picture',
      Status: 'published',
      Visibility: 'public',
      StartsAt: future(22, 17),
      EndsAt: future(22, 19),
      ImageFileId: fileId,
    });
    expect(theirs.statusCode, theirs.body).toBe(400);
    expect((theirs.json() as { message: string }).message).toBe(
      'The request names a record that does not exist.',
    );
  });

  it('deleting the library file clears the image of the events that showed it', async () => {
    const uploaded = await uploadFile(
      ctx.app,
      adminCookie,
      '/api/images/Upload/0/0',
      await picture(),
      'harbour.png',
      'image/png',
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const harbour = (uploaded.json() as { FileId: number }).FileId;
    const event = await saveEvent({ Name: 'Harbour walk', ImageFileId: harbour });
    const other = await saveEvent({ Name: 'Quay talk', ImageFileId: fileId });
    expect(event.ImageFileId).toBe(harbour);

    const gone = await admin.delete(`/api/files/entry/${harbour}`);
    expect(gone.statusCode, gone.body).toBeLessThan(300);

    const got = await admin.post('/api/events/events/eventGet', { id: event.EventId });
    const model = ((got.json() as { Data?: Model } & Model).Data ?? got.json()) as Model;
    expect(model.ImageFileId ?? null).toBeNull();
    const page = await member.get(`/api/events/member/events/${Number(event.EventId)}`);
    expect((page.json() as { Image: unknown }).Image).toBeNull();
    // Another event's image (another file) stays.
    const kept = await admin.post('/api/events/events/eventGet', { id: other.EventId });
    expect((((kept.json() as { Data?: Model } & Model).Data ?? kept.json()) as Model).ImageFileId).toBe(
      fileId,
    );
  });
});
