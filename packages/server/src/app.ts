import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Database } from '@guildhall/db';
import type { Permission } from '@guildhall/shared';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { features } from './features/index.ts';
import type { AppConfig } from './platform/config.ts';
import { registerErrorHandling } from './platform/errors.ts';
import type { FeatureModule } from './platform/feature-module.ts';
import { registerSecurityHeaders } from './platform/headers.ts';
import type { Worker } from './platform/jobs.ts';
import type { Mailer } from './platform/mailer.ts';
import { databaseRateLimitStore } from './platform/rate-limit-store.ts';
import { RequestLog } from './platform/request-log.ts';
import { registerScreenLayer } from './platform/resources/index.ts';
import { type BoundResource, discoverResources } from './platform/resources/registry.ts';
import { registerApiSecurity } from './platform/security.ts';
import { createServices, type Services } from './platform/services.ts';
import type { Storage } from './platform/storage.ts';

export interface BuildOptions {
  database: Database;
  config: AppConfig;
  mailer?: Mailer;
  storage?: Storage;
  /** The feature modules to assemble: `features` (features/index.ts) unless a test says otherwise. */
  modules?: readonly FeatureModule[];
  logger?: FastifyServerOptions['logger'];
}

export interface RegisteredRoute {
  method: string;
  url: string;
  permission: Permission;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route with its permission (the isolation tests enumerate these). */
    apiRoutes: RegisteredRoute[];
    /** The composition root's services (services.ts), for routes; hooks and jobs get them as an argument. */
    services: Services;
    resources: readonly BoundResource[];
    storage: Storage;
    worker: Worker;
  }
}

/**
 * Builds the application without listening: tests drive it through app.inject(). The composition root: the
 * services are made here (services.ts), the feature modules assembled with them, and nothing else starts work.
 */
export async function buildApp(options: BuildOptions) {
  const { database, config } = options;
  const modules = options.modules ?? features;
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request, at its answer (platform/request-log.ts).
    logController: new RequestLog(),
    // Forwarded headers are believed only from the proxies named in TRUST_PROXY; anyone can write them.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: 1024 * 1024,
    // Path parameters are bounded by each route's schema (a 400 with a message), not cut short by the router.
    // A trailing slash names the same route (the specification writes `/api/files/download/{fileId}/?open=true`).
    routerOptions: { maxParamLength: 1000, ignoreTrailingSlash: true },
    // Registering several hundred routes (each with its schemas) took over Fastify's default 10 s on a loaded
    // 2-core host, which failed the start; a start that is stuck still fails, after a minute.
    pluginTimeout: 60_000,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every resource declared in shared, bound to its table; the modules are checked against them before anything
  // starts, so a hook or job naming an unknown resource or kind fails here.
  const resources = await discoverResources();
  const { services, worker } = createServices(
    {
      database,
      config,
      mailer: options.mailer,
      storage: options.storage,
      log: app.log,
    },
    modules,
    resources,
  );
  const { mailer } = services;
  app.decorate('database', database);
  app.decorate('config', config);
  app.decorate('mailer', mailer);
  app.decorate('services', services);
  app.decorate('resources', resources);
  app.decorate('storage', services.storage);
  app.decorate('worker', worker);
  app.decorate('background', services.background);
  app.decorate('apiRoutes', [] as RegisteredRoute[]);
  app.decorate('pipelineCounts', { oneTrip: 0, usual: 0 });
  const contactNamers = modules.filter((m) => m.callerContact);
  if (contactNamers.length > 1)
    throw new Error(
      `Feature modules: ${contactNamers.map((m) => m.name).join(' and ')} both say how a sign-in names its contact (callerContact); one may.`,
    );
  app.decorate('callerContact', contactNamers[0]?.callerContact ?? null);
  app.decorateRequest('auth', null);
  registerErrorHandling(app);

  await app.register(fastifyCookie);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // Stripe.js, its card element's frames and its API, for members paying by card with Stripe (as Stripe
        // documents for a content security policy); nothing else is loaded from another origin.
        'script-src': ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'https://api.stripe.com'],
        'frame-src': ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    // HSTS only means something over https; browsers ignore it on plain http.
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: true },
  });
  // Counted in the database, so that each limit holds for the deployment rather than per instance.
  await app.register(fastifyRateLimit, {
    global: false,
    store: databaseRateLimitStore(
      options.database,
      config.rateLimitNamespace ?? '',
    ) as unknown as FastifyRateLimitStoreCtor,
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Guildhall API', description: 'The back office of associations', version: '0.1.0' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.addHook('onClose', async () => {
    await services.background.settled();
    await worker.stop();
    mailer.close();
  });

  await app.register(async (api) => {
    api.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        app.apiRoutes.push({ method, url: route.url, permission: route.config?.permission as Permission });
      }
    });
    registerApiSecurity(api, app.pipelineCounts);
    for (const module of modules) if (module.routes) await api.register(module.routes);
    // The generic screen layer: every resource and report declared in packages/shared, found by convention.
    await registerScreenLayer(api, services);
  });

  const indexHtml = join(config.webDist, 'index.html');
  const hasWeb = existsSync(indexHtml);
  if (hasWeb) {
    // Files are looked up per request, so a rebuilt web app is served without a restart. Hashed assets are
    // immutable; index.html is always revalidated. The site's root (`/`, where a new user arrives) is the app.
    await app.register(fastifyStatic, {
      root: config.webDist,
      index: 'index.html',
      setHeaders(reply, filePath) {
        reply.header(
          'Cache-Control',
          filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url === '/api';
    // A missing asset (a stale chunk after a deploy) is a 404, never the page, so the app can tell and reload.
    const isAsset = request.url.startsWith('/assets/');
    if (!isApi && !isAsset && hasWeb && request.method === 'GET') {
      // The single-page app answers its own routes (and shows its own not-found page).
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ message: 'Not found.' });
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
