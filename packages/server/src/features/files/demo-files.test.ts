/**
 * The demo's files and images are seeded through the app's own API (seed/demo-files.ts through platform/demo-api.ts):
 * folders, documents that pass the content checks, the logo, an event gallery, contacts' photos and files, all found
 * by browsing and by global search.
 */
import { seedDemoFiles } from '@guildhall/seed/demo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, seedTenant, signIn, type TestContext, testApp } from '../../../test/helpers.ts';
import { demoApi } from '../../platform/demo-api.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp();
});
afterAll(() => ctx.close());

describe('demo files and images', { timeout: 180_000 }, () => {
  it('fills the library, the logo, the gallery and contacts’ photos and files through the API', async () => {
    const t = await seedTenant(ctx.database);
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const contacts: { id: number; firstName: string; lastName: string }[] = [];
    for (const [FirstName, LastName] of [
      ['Łukasz', 'Nowak'],
      ['Amara', 'Okafor'],
    ] as const) {
      const saved = await admin.post('/api/contacts/contacts/contactSave', {
        ContactType: 'individual',
        Status: 'active',
        FirstName,
        LastName,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      contacts.push({ id: saved.json().Data.ContactId as number, firstName: FirstName, lastName: LastName });
    }
    const conference = await admin.post('/api/events/events/eventSave', {
      Name: 'Annual Conference 2027',
      Status: 'published',
      Visibility: 'public',
      StartsAt: new Date(Date.now() + 90 * 86_400_000).toISOString(),
      EndsAt: new Date(Date.now() + 91 * 86_400_000).toISOString(),
    });
    expect(conference.statusCode, conference.body).toBe(200);
    await seedDemoFiles(await demoApi(ctx.app, t.admin.username, t.admin.password), {
      associationName: 'Prairie Nurses Association',
      contacts,
    });

    const top = (await admin.get('/api/files/library')).json() as {
      Records: { Name: string; Type: number; Id: number }[];
    };
    expect(top.Records.filter((e) => e.Type === 1).map((e) => e.Name)).toEqual(
      expect.arrayContaining(['Event photos', 'Forms and templates', 'Governance', 'Newsletters']),
    );
    const governance = top.Records.find((e) => e.Name === 'Governance');
    const inside = (await admin.get(`/api/files/library?folderId=${governance?.Id}`)).json() as {
      Records: { Name: string; ContentType: string | null }[];
    };
    expect(inside.Records.map((e) => e.Name)).toEqual(expect.arrayContaining(['Board minutes']));
    expect(inside.Records.find((e) => e.Name.startsWith('Bylaws'))?.ContentType).toBe('application/pdf');

    const logo = (await admin.get('/api/images/Usage/1')).json() as
      | { Images: { Url: string }[] }
      | { Url: string }[];
    expect(JSON.stringify(logo)).toContain('logo.png');
    const gallery = await admin.get('/api/images/Usage/3');
    expect(gallery.body).toContain('Annual Conference keynote.jpg');
    // The conference shows the keynote photo as its own image.
    const keynote = (gallery.json() as { Images: { Name: string; FileId: number }[] }).Images.find(
      (i) => i.Name === 'Annual Conference keynote.jpg',
    );
    const event = await admin.post('/api/events/events/eventGet', { id: conference.json().Data.EventId });
    expect((event.json().Data ?? event.json()).ImageFileId).toBe(keynote?.FileId);

    const photo = await admin.get(`/api/images/Usage/2?secondary=${contacts[0]?.id}`);
    expect(photo.body).toContain('Łukasz Nowak.jpg');
    const files = (await admin.get(`/api/files/contact/${contacts[1]?.id}`)).json() as {
      Records: { Name: string }[];
    };
    expect(files.Records.map((f) => f.Name)).toEqual(
      expect.arrayContaining(['Membership application.pdf', 'Amara Okafor.jpg']),
    );
    const search = await admin.get('/api/search/global/backoffice/bylaws');
    expect(search.statusCode).toBe(200);
    expect(search.body).toContain('Bylaws');
  });
});
