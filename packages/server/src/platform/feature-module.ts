/**
 * The contract of a server feature: each folder under `features/` exports one module object saying everything it
 * brings (routes, server hooks of resources, job handlers, search-document writers). `features/index.ts` lists the
 * modules; `app.ts` assembles them with the services of the composition root (`services.ts`). Nothing else is
 * registered by importing a file: a feature missing from the list is simply absent, and a module naming a resource
 * or a job kind that does not exist stops the start with a message that says which (decision 0070).
 *
 * platform/ never imports a feature; features import platform/ and, for another feature, only its module file.
 */
import type { Tx } from '@guildhall/db';
import type { SystemTemplate } from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthContext } from './context.ts';
import type { JobHandler } from './jobs.ts';
import type { ExtraFieldsSource } from './resources/extra-fields.ts';
import type { ResourceHooks } from './resources/hooks.ts';
import type { BoundResource } from './resources/registry.ts';
import type { EventSubscriber, SearchWriterDeclaration, Services } from './services.ts';

export interface FeatureModule {
  /** The feature's folder name; unique among the modules. */
  name: string;
  /** The feature's routes, registered inside the API scope (every route declares its permission there). */
  routes?: FastifyPluginAsyncZod;
  /**
   * Server hooks of resources declared in shared, by resource name, made once with the app's services. They run
   * inside the write's transaction (decisions 0040, 0041). A name that no resource has fails the start.
   */
  resourceHooks?: (services: Services) => Record<string, ResourceHooks>;
  /**
   * Fields a tenant adds to resources at run time (custom fields): for each resource, how its lists read, sort,
   * filter and export them, or null for a resource this feature does not extend (decision 0112). One feature at
   * most extends a resource.
   */
  listFields?: (services: Services) => (bound: BoundResource) => ExtraFieldsSource | null;
  /**
   * Background work, by job kind, made once with the app's services when the worker starts. A kind is unique
   * across modules; `services.jobs.enqueue` refuses a kind no module declared.
   */
  jobs?: Record<string, (services: Services) => JobHandler>;
  /**
   * Job kinds of this module's `jobs` run once a day for every association, from DAILY_JOB_HOUR in its timezone
   * (decision 0181): the platform queues them, whatever the number of instances, once per association and day.
   */
  daily?: readonly string[];
  /**
   * Writers of the global search index, by entity type (`search_documents.entity_type`): rewrite the documents of
   * one record in the caller's transaction (and, when declared with `writeMany`, many in batches). Others reach them
   * through `services.search`.
   */
  searchDocuments?: Record<string, SearchWriterDeclaration>;
  /**
   * Domain events this feature publishes through `services.events.publish` (names such as `invoice.paid`; the
   * payload schema lives in the feature's shared folder). A name has one publisher (decision 0110).
   */
  publishes?: readonly string[];
  /**
   * Subscribers to other features' events, by event name, made once with the app's services; each runs inside the
   * publisher's transaction. A name no module publishes fails the start.
   */
  subscribes?: Record<string, (services: Services) => EventSubscriber>;
  /**
   * The system messages this feature sends (a password reset, an invoice), each with its default wording and its
   * values (decision 0154): listed for staff to reword per association. A key has one declaring module.
   */
  mailTemplates?: readonly SystemTemplate[];
  /**
   * How a sign-in names its own contact (the member's rows): routes declaring `ownRows` read it through
   * `ownContactId(request)`. One module at most provides it (decision 0183).
   */
  callerContact?: (tx: Tx, auth: AuthContext) => Promise<number | null>;
}

/** Declares a feature module (an identity that gives the object its type where it is written). */
export function defineFeature(module: FeatureModule): FeatureModule {
  return module;
}
