/**
 * The developer query tool's calls (spec 001 section 7, spec 000 section 7): the list of queries, a run answering
 * HTML (`POST /a/dev/QuerytoolRun`) and a download answering CSV text (`POST /a/dev/QuerytoolDownload`), both with
 * form data: `QueryName` and one field per parameter. A refused run answers its message as the page shows it
 * (spec 001 section 8: "the response text is put in the page").
 */
import { PassThrough } from 'node:stream';
import { apiErrorSchema, isQuery, queryCatalogueItemSchema, queryRunFormSchema } from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import { discover } from '../../platform/resources/registry.ts';
import { checkDeclarationsApart } from './query-check.ts';
import { QueryTool } from './query-tool.service.ts';

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** Form data as an object; a field given twice becomes a list. */
function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const had = out[key];
    out[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** A refusal: the page's HTML (or text), or the API's `{message, errors}` for a form that is no form at all. */
const refusal = z.union([z.string(), apiErrorSchema]);

export const queryToolRoutes: FastifyPluginAsyncZod = async (app) => {
  // The named queries: every `*.query.ts` declaration of shared, checked by the guard before the app starts
  // (in a thread of its own that ends with the check, while the rest of the app is built: query-check.ts).
  const queries = await discover('.query', isQuery);
  const checked = checkDeclarationsApart(queries);
  checked.catch(() => undefined); // answered in onReady below
  app.addHook('onReady', () => checked);
  const tool = new QueryTool(app.database, queries);

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_req, body, done) => done(null, parseForm(String(body))),
  );

  app.get('/api/query-tool/queries', {
    config: { permission: 'querytool.run' },
    schema: {
      tags: ['query-tool'],
      summary: 'The named queries of the developer query tool: shipped ones and the association’s own',
      response: { 200: z.array(queryCatalogueItemSchema) },
    },
    handler: async (req) => tool.catalogue(requireAuth(req.auth)),
  });

  app.post('/a/dev/QuerytoolRun', {
    config: { permission: 'querytool.run' },
    schema: {
      tags: ['query-tool'],
      summary: 'Runs a named query with its parameters; answers one page of results as HTML',
      body: queryRunFormSchema,
      response: { 200: z.string(), 400: refusal, 404: refusal },
    },
    handler: async (req, reply) => {
      const auth = requireAuth(req.auth);
      try {
        const html = await tool.runHtml(auth, req.body);
        return reply.type('text/html; charset=utf-8').send(html);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const list = Object.values(error.errors ?? {}).flat();
        const detail =
          list.length > 1 ? `<ul>${list.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>` : '';
        return reply
          .code(error.status === 404 ? 404 : 400)
          .type('text/html; charset=utf-8')
          .send(`<div class="query-error" role="alert"><p>${escapeHtml(error.message)}</p>${detail}</div>`);
      }
    },
  });

  app.post('/a/dev/QuerytoolDownload', {
    config: { permission: 'querytool.run' },
    schema: {
      tags: ['query-tool'],
      summary:
        'Runs a named query with its parameters; answers every row as CSV text, streamed (a refusal answers its message as text)',
      body: queryRunFormSchema,
    },
    handler: async (req, reply) => {
      const auth = requireAuth(req.auth);
      const out = new PassThrough();
      let started = false;
      const write = (chunk: string) =>
        new Promise<void>((resolve, reject) => {
          if (out.destroyed) return reject(new Error('The download was cancelled.'));
          if (out.write(chunk)) return resolve();
          const drained = () => {
            out.off('close', gone);
            resolve();
          };
          const gone = () => {
            out.off('drain', drained);
            reject(new Error('The download was cancelled.'));
          };
          out.once('drain', drained);
          out.once('close', gone);
        });
      try {
        const result = await tool.download(
          auth,
          req.body,
          (fileName) => {
            started = true;
            reply
              .type('text/csv; charset=utf-8')
              .header('Content-Disposition', `attachment; filename="${fileName}"`)
              .send(out);
          },
          write,
        );
        if (result.capped) req.log.info({ rows: result.rows }, 'query download stopped at the row cap');
        out.end();
        return reply;
      } catch (error) {
        if (started) {
          out.destroy(error as Error);
          return reply;
        }
        if (!(error instanceof HttpError)) throw error;
        const list = Object.values(error.errors ?? {}).flat();
        const text = list.length > 1 ? `${error.message}\n${list.join('\n')}` : error.message;
        return reply.code(error.status).type('text/plain; charset=utf-8').send(text);
      }
    },
  });
};
