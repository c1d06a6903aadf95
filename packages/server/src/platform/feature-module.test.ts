/**
 * The app is assembled from the feature modules it is given (decision 0070): a module's hooks and jobs exist only
 * through it, and a module that names a resource, a job kind or an entity type wrongly stops the start with a
 * message that says which.
 */
import { withoutTenantTx, withTenantTx } from '@guildhall/db';
import { contactsResource } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWith } from '../../test/fixtures/start.ts';
import { client, seedTenant, signIn, type TestContext, testApp, testDatabase } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { features } from '../features/index.ts';
import { loadConfig } from './config.ts';
import { defineFeature } from './feature-module.ts';

describe('a module that names what does not exist fails the start', { timeout: 120_000 }, () => {
  it('hooks for an unknown resource', async () => {
    const typo = defineFeature({ name: 'typo', resourceHooks: () => ({ contactz: {} }) });
    const err = await startWith([...features, typo]);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      'Feature modules: typo declares hooks for the resource contactz, which no *.resource.ts in packages/shared declares.',
    );
  });

  it('hooks for a resource another module already hooks', async () => {
    const twice = defineFeature({ name: 'twice', resourceHooks: () => ({ [contactsResource.name]: {} }) });
    const err = (await startWith([...features, twice])) as Error;
    expect(err.message).toBe(
      `Feature modules: twice declares hooks for ${contactsResource.name}, which contacts already hooks.`,
    );
  });

  it('a job kind another module handles', async () => {
    const clash = defineFeature({
      name: 'clash',
      jobs: { 'contacts-import': () => async () => undefined },
    });
    const err = (await startWith([...features, clash])) as Error;
    expect(err.message).toBe(
      'Feature modules: clash declares the job kind contacts-import, which contacts already handles.',
    );
  });

  it('the job kind of the platform’s export', async () => {
    const clash = defineFeature({ name: 'clash', jobs: { export: () => async () => undefined } });
    const err = (await startWith([...features, clash])) as Error;
    expect(err.message).toBe(
      'Feature modules: clash declares the job kind export, which platform already handles.',
    );
  });

  it('two writers of one search entity type, or two modules of one name', async () => {
    const writer = defineFeature({ name: 'writer', searchDocuments: { Contact: async () => undefined } });
    expect(((await startWith([...features, writer])) as Error).message).toBe(
      'Feature modules: writer writes search documents of Contact, which contacts already writes.',
    );
    const again = defineFeature({ name: 'contacts' });
    expect(((await startWith([...features, again])) as Error).message).toBe(
      'Feature modules: two modules are named contacts.',
    );
  });
});

describe('domain events between modules (decision 0110)', { timeout: 120_000 }, () => {
  it('a subscription to an event nobody publishes, or two publishers of one event, fails the start', async () => {
    const deaf = defineFeature({
      name: 'deaf',
      subscribes: { 'nothing.happened': () => async () => undefined },
    });
    expect(((await startWith([...features, deaf])) as Error).message).toBe(
      'Feature modules: deaf subscribes to the event nothing.happened, which no module publishes.',
    );
    const a = defineFeature({ name: 'a', publishes: ['thing.done'] });
    const b = defineFeature({ name: 'b', publishes: ['thing.done'] });
    expect(((await startWith([...features, a, b])) as Error).message).toBe(
      'Feature modules: b publishes the event thing.done, which a already publishes.',
    );
  });

  it('subscribers run in the publisher’s transaction, in module order, and roll back with it', async () => {
    const seen: string[] = [];
    const publisher = defineFeature({ name: 'publisher', publishes: ['thing.done'] });
    const first = defineFeature({
      name: 'first',
      subscribes: {
        'thing.done': () => async (_tx, tenantId, payload) => {
          seen.push(`first ${tenantId} ${String(payload.id)}`);
        },
      },
    });
    const second = defineFeature({
      name: 'second',
      subscribes: {
        'thing.done': () => async (tx) => {
          seen.push('second');
          await tx.execute(sql`select 1`);
          throw new Error('refused by second');
        },
      },
    });
    const database = await testDatabase(1);
    const app = await buildApp({
      database,
      config: loadConfig({}),
      modules: [...features, publisher, first, second],
    });
    try {
      expect(app.services.events.names).toContain('thing.done');
      const tenant = '00000000-0000-4000-8000-000000000001';
      await expect(
        withoutTenantTx(database.db, (tx) =>
          app.services.events.publish(tx, tenant, 'thing.done', { id: 7 }),
        ),
      ).rejects.toThrow('refused by second');
      expect(seen).toEqual([`first ${tenant} 7`, 'second']);
      await expect(
        withoutTenantTx(database.db, (tx) => app.services.events.publish(tx, tenant, 'never.declared', {})),
      ).rejects.toThrow('No feature module publishes the event never.declared.');
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('the app holds exactly the modules it is given', () => {
  let without: TestContext;
  let full: TestContext;
  beforeAll(async () => {
    without = await testApp({}, 2, { modules: features.filter((m) => m.name !== 'contacts') });
    full = await testApp({}, 2);
  });
  afterAll(async () => {
    await without.close();
    await full.close();
  });

  it('leaves out a feature’s routes, hooks, jobs and search writers', async () => {
    const paths = (ctx: TestContext) => new Set(ctx.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    expect(paths(full).has('POST /api/contacts/contacts/merge')).toBe(true);
    expect(paths(without).has('POST /api/contacts/contacts/merge')).toBe(false);
    const hooksOf = (ctx: TestContext) =>
      ctx.app.resources.find((r) => r.resource.name === contactsResource.name)?.hooks ?? {};
    expect(Object.keys(hooksOf(full)).sort()).toEqual([
      'afterWrite',
      'beforeSave',
      'countStatement',
      'searchIndex',
    ]);
    expect(hooksOf(without)).toEqual({});
    expect(full.app.services.jobs.kinds).toContain('contacts-import');
    expect(without.app.services.jobs.kinds).toContain('export');
    expect(without.app.services.jobs.kinds).not.toContain('contacts-import');
    expect(full.app.services.search.entityTypes).toContain('Contact');
    expect(without.app.services.search.entityTypes).not.toContain('Contact');
  });

  it('the generic contact list still works without the feature’s hooks (the generic search and count)', async () => {
    const t = await seedTenant(without.database);
    const api = client(without.app, (await signIn(without.app, t.staff)).cookie);
    const saved = await api.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Plain',
      LastName: 'Generic',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const list = await api.post('/api/contacts/contacts/contactData?$top=10&$skip=0', {
      SearchText: 'Generic',
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().TotalRecordAvailable).toBe(1);
    expect(list.json().Results.map((r: { DisplayName: string }) => r.DisplayName)).toEqual([
      'Generic, Plain',
    ]);
  });

  it('refuses to queue a job kind that no module handles', async () => {
    const t = await seedTenant(full.database);
    await expect(
      withTenantTx(full.database.db, { tenantId: t.tenant.id }, (tx) =>
        full.app.services.jobs.enqueue(tx, {
          tenantId: t.tenant.id,
          kind: 'nope',
          payload: {},
          userId: null,
        }),
      ),
    ).rejects.toThrow(
      // The known kinds: the platform's own first, then each module's (the list grows with the features).
      /^No feature module handles the job kind nope \(known: export, list-counts-fold, report-schedules, contacts-import, .*tasks-reminders.*\)\.$/,
    );
  });
});
