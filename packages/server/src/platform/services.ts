/**
 * The composition root's services: everything a feature uses beyond its own code is made here, once per app, and
 * handed to the features (their hooks and job handlers get it as an argument; their routes find it on the app as
 * `app.services`). The job queue and its worker, the file storage, the mailer and the search-index writer are
 * made nowhere else.
 */
import type { Database, Tx } from '@guildhall/db';
import type { SystemTemplate } from '@guildhall/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type Background, createBackground } from './background.ts';
import type { AppConfig } from './config.ts';
import type { FeatureModule } from './feature-module.ts';
import { enqueue, type JobHandler, startDaily, startWorker, type Worker } from './jobs.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { EXPORT_JOB, exportHandler } from './resources/export.ts';
import type { ResourceHooks } from './resources/hooks.ts';
import { LIST_COUNTS_FOLD_JOB, listCountsFoldHandler } from './resources/list-counts.ts';
import type { BoundResource } from './resources/registry.ts';
import { REPORT_SCHEDULES_JOB, reportSchedulesHandler } from './resources/report-schedules.ts';
import { createStorage, type Storage } from './storage.ts';

/**
 * Rewrites the search documents of one record, in the caller's transaction. `resources` are the app's bound
 * resources, so that a writer reads what other features add to its records (extra fields, decision 0112).
 */
export type SearchDocumentWriter = (
  tx: Tx,
  tenantId: string,
  id: number,
  resources: readonly BoundResource[],
) => Promise<void>;

/** Rewrites the search documents of many records at once (a few statements per batch), in the caller's transaction. */
export type SearchDocumentsWriter = (
  tx: Tx,
  tenantId: string,
  ids: readonly number[],
  resources: readonly BoundResource[],
) => Promise<void>;

/** A module's writer of one entity type: one record at a time, or also many in batches. */
export type SearchWriterDeclaration =
  | SearchDocumentWriter
  | { write: SearchDocumentWriter; writeMany: SearchDocumentsWriter };

/** The global search index's writer: the documents of a record of any searchable entity type. */
export interface SearchIndex {
  readonly entityTypes: readonly string[];
  /** Rewrites the documents of one record; an entity type no module writes is a programming error. */
  write(tx: Tx, tenantId: string, entityType: string, id: number): Promise<void>;
  /**
   * Rewrites the documents of many records (a definition they read changed: a custom field made searchable): in
   * batches when the writer declares it, else one by one.
   */
  writeMany(tx: Tx, tenantId: string, entityType: string, ids: readonly number[]): Promise<void>;
}

export interface NewJob {
  tenantId: string;
  kind: string;
  payload: Record<string, unknown>;
  userId: number | null;
  /** Not before this time (a scheduled mailing); now when absent. */
  runAfter?: Date;
}

/** The PostgreSQL job queue of decision 0032, as features use it. */
export interface JobQueue {
  readonly kinds: readonly string[];
  /**
   * Queues a job in the caller's transaction and wakes the worker shortly after (when that transaction has
   * committed). A kind that no module handles is refused at once, never left queued forever.
   */
  enqueue(tx: Tx, job: NewJob): Promise<string>;
  /** Look for work now. */
  wake(): void;
}

/**
 * A subscriber to a domain event: runs inside the publisher's transaction, so the event and everything its
 * subscribers do commit or roll back together (decision 0110). The payload's shape is declared in shared by the
 * publishing feature; a subscriber parses it with that schema.
 */
export type EventSubscriber = (tx: Tx, tenantId: string, payload: Record<string, unknown>) => Promise<void>;

/** Domain events between features (an invoice paid, a registration cancelled): the way one feature tells others. */
export interface DomainEvents {
  /** The event names some module publishes. */
  readonly names: readonly string[];
  /**
   * Runs every subscriber of `name`, in module order, in the caller's transaction. A name no module declared in
   * its `publishes` is a programming error and throws.
   */
  publish(tx: Tx, tenantId: string, name: string, payload: Record<string, unknown>): Promise<void>;
}

export interface Services {
  database: Database;
  config: AppConfig;
  mailer: Mailer;
  storage: Storage;
  /** Work that runs after the answer has gone (a mail); closing the app waits for it. */
  background: Background;
  jobs: JobQueue;
  search: SearchIndex;
  events: DomainEvents;
  /** Every resource declared in shared, bound to its table, with its feature's server hooks. */
  resources: readonly BoundResource[];
  /** The system messages the modules declare (`mailTemplates`), by key order of the modules. */
  mailTemplates: readonly SystemTemplate[];
}

export interface ServiceOptions {
  database: Database;
  config: AppConfig;
  /** Replaces the mailer made from the configuration (tests). */
  mailer?: Mailer | undefined;
  /** Replaces the file storage made from the configuration. */
  storage?: Storage | undefined;
  /** Where failed jobs and failed background work are logged. */
  log: FastifyBaseLogger;
}

/** The jobs of the platform itself (the screen layer's export), beside the features' own. */
const platformJobs: Record<string, (services: Services) => JobHandler> = {
  [EXPORT_JOB]: (s) => exportHandler(s.resources, s.storage),
  [LIST_COUNTS_FOLD_JOB]: () => listCountsFoldHandler,
  [REPORT_SCHEDULES_JOB]: (s) => reportSchedulesHandler(s.mailer, s.resources),
};
/** The platform's own jobs that run once a day for every association (decision 0181). */
const platformDaily: readonly string[] = [LIST_COUNTS_FOLD_JOB, REPORT_SCHEDULES_JOB];

function refuse(message: string): never {
  throw new Error(`Feature modules: ${message}`);
}

/**
 * Checks the modules against each other and the declared resources, then makes the services and starts the job
 * worker. Any module that names an unknown resource, or declares a kind, an entity type or a name another one
 * already has, stops the start here with a message that names both.
 */
export function createServices(
  options: ServiceOptions,
  modules: readonly FeatureModule[],
  resources: readonly BoundResource[],
): { services: Services; worker: Worker } {
  const names = new Set<string>();
  for (const m of modules) {
    if (names.has(m.name)) refuse(`two modules are named ${m.name}.`);
    names.add(m.name);
  }

  const jobMakers = new Map<string, { owner: string; make: (s: Services) => JobHandler }>();
  for (const [kind, make] of Object.entries(platformJobs)) jobMakers.set(kind, { owner: 'platform', make });
  for (const m of modules) {
    for (const [kind, make] of Object.entries(m.jobs ?? {})) {
      const other = jobMakers.get(kind);
      if (other) refuse(`${m.name} declares the job kind ${kind}, which ${other.owner} already handles.`);
      jobMakers.set(kind, { owner: m.name, make });
    }
  }

  const dailyKinds: string[] = [...platformDaily];
  for (const m of modules) {
    for (const kind of m.daily ?? []) {
      if (!(kind in (m.jobs ?? {}))) refuse(`${m.name} runs ${kind} daily but declares no such job kind.`);
      dailyKinds.push(kind);
    }
  }

  const writers = new Map<
    string,
    { owner: string; write: SearchDocumentWriter; writeMany?: SearchDocumentsWriter }
  >();
  for (const m of modules) {
    for (const [type, declared] of Object.entries(m.searchDocuments ?? {})) {
      const other = writers.get(type);
      if (other) refuse(`${m.name} writes search documents of ${type}, which ${other.owner} already writes.`);
      writers.set(
        type,
        typeof declared === 'function' ? { owner: m.name, write: declared } : { owner: m.name, ...declared },
      );
    }
  }

  const publishers = new Map<string, string>();
  for (const m of modules) {
    for (const name of m.publishes ?? []) {
      const other = publishers.get(name);
      if (other) refuse(`${m.name} publishes the event ${name}, which ${other} already publishes.`);
      publishers.set(name, m.name);
    }
  }
  for (const m of modules) {
    for (const name of Object.keys(m.subscribes ?? {})) {
      if (!publishers.has(name))
        refuse(`${m.name} subscribes to the event ${name}, which no module publishes.`);
    }
  }

  const mailTemplates: SystemTemplate[] = [];
  const templateOwners = new Map<string, string>();
  for (const m of modules) {
    for (const t of m.mailTemplates ?? []) {
      const other = templateOwners.get(t.Key);
      if (other) refuse(`${m.name} declares the system message ${t.Key}, which ${other} already declares.`);
      templateOwners.set(t.Key, m.name);
      mailTemplates.push(t);
    }
  }

  let worker: Worker | null = null;
  const kinds = [...jobMakers.keys()];
  const jobs: JobQueue = {
    kinds,
    async enqueue(tx, job) {
      if (!jobMakers.has(job.kind))
        throw new Error(`No feature module handles the job kind ${job.kind} (known: ${kinds.join(', ')}).`);
      const id = await enqueue(tx, job);
      // Started after the caller's transaction commits; a short delay is enough for the worker to see the row.
      setTimeout(() => worker?.wake(), 20).unref();
      return id;
    },
    wake: () => worker?.wake(),
  };
  const search: SearchIndex = {
    entityTypes: [...writers.keys()],
    write(tx, tenantId, entityType, id) {
      const writer = writers.get(entityType);
      if (!writer) throw new Error(`No feature module writes search documents of ${entityType}.`);
      return writer.write(tx, tenantId, id, resources);
    },
    async writeMany(tx, tenantId, entityType, ids) {
      const writer = writers.get(entityType);
      if (!writer) throw new Error(`No feature module writes search documents of ${entityType}.`);
      if (writer.writeMany) return writer.writeMany(tx, tenantId, ids, resources);
      for (const id of ids) await writer.write(tx, tenantId, id, resources);
    },
  };
  const subscribers = new Map<string, EventSubscriber[]>();
  const events: DomainEvents = {
    names: [...publishers.keys()],
    async publish(tx, tenantId, name, payload) {
      if (!publishers.has(name)) throw new Error(`No feature module publishes the event ${name}.`);
      for (const subscriber of subscribers.get(name) ?? []) await subscriber(tx, tenantId, payload);
    },
  };
  const { database, config } = options;
  const services: Services = {
    database,
    config,
    mailer: options.mailer ?? createMailer(database, config.smtpUrl, config.mailFrom),
    storage: options.storage ?? createStorage(config),
    background: createBackground(options.log),
    jobs,
    search,
    events,
    resources,
    mailTemplates,
  };
  for (const m of modules) {
    for (const [name, make] of Object.entries(m.subscribes ?? {})) {
      const list = subscribers.get(name) ?? [];
      list.push(make(services));
      subscribers.set(name, list);
    }
  }

  // Each resource gets its feature's hooks; a hook for a resource nobody declared is a typo or a removed entity.
  const byName = new Map(resources.map((r) => [r.resource.name, r]));
  const hooked = new Map<string, string>();
  for (const m of modules) {
    for (const [name, hooks] of Object.entries(m.resourceHooks?.(services) ?? {})) {
      const bound = byName.get(name);
      if (!bound)
        refuse(
          `${m.name} declares hooks for the resource ${name}, which no *.resource.ts in packages/shared declares.`,
        );
      const other = hooked.get(name);
      if (other) refuse(`${m.name} declares hooks for ${name}, which ${other} already hooks.`);
      hooked.set(name, m.name);
      bound.hooks = hooks satisfies ResourceHooks;
    }
  }
  for (const m of modules) {
    const extend = m.listFields?.(services);
    if (!extend) continue;
    for (const bound of resources) {
      const source = extend(bound);
      if (!source) continue;
      if (bound.extraFields)
        refuse(`${m.name} adds list fields to ${bound.resource.name}, which another feature extends.`);
      bound.extraFields = source;
    }
  }

  const handlers: Record<string, JobHandler> = {};
  for (const [kind, { make }] of jobMakers) handlers[kind] = make(services);
  const onError = (err: unknown) => options.log.error({ err }, 'job failed');
  const started = startWorker(database, handlers, { onError });
  const daily = startDaily(database, dailyKinds, () => started.wake(), onError);
  worker = {
    ...started,
    async stop() {
      daily.stop();
      await started.stop();
    },
  };
  return { services, worker };
}
