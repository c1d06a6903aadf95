/**
 * Memberships routes beyond the generic layer (which serves the setup, the list, the record, its fees and history
 * from the resource declarations): what the join wizard chooses from, a live price, joining, the lifecycle
 * transitions and the dashboard's counts.
 */

import { withTenantTx } from '@guildhall/db';
import {
  addSecondaryMemberSchema,
  autoPayBodySchema,
  joinAnswerSchema,
  joinMembershipSchema,
  type MembershipTransition,
  membershipChangeAnswerSchema,
  membershipChangeSchema,
  membershipChoiceSchema,
  membershipCountsSchema,
  membershipOptionsSchema,
  membershipPriceSchema,
  membershipStateSchema,
  myMembershipsSchema,
  publicJoinAnswerSchema,
  publicJoinOptionsSchema,
  publicJoinSchema,
  renewalPreviewSchema,
  renewalRunDetailSchema,
  renewalRunSchema,
  renewalRunsSchema,
  secondaryMembersSchema,
  transitionBodySchema,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownContactIdIfAny, scope } from '../../platform/context.ts';
import { invoiceJoin, previewRenewals } from './memberships.billing.ts';
import { changeMembership, previewChange } from './memberships.change.ts';
import { counts } from './memberships.counts.ts';
import * as member from './memberships.member.ts';
import { publicJoin, publicOptions } from './memberships.public.ts';
import * as runs from './memberships.runs.ts';
import * as secondary from './memberships.secondary.ts';
import * as service from './memberships.service.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const memberParams = idParams.extend({
  contactId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const tenantParams = z.object({ tenantId: z.uuid() });
/** Public joins per address and minute: enough for a family joining together, not for a script. */
export const PUBLIC_JOINS_PER_MINUTE = 5;

export const membershipsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/memberships/options', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'The open membership types with their levels and frequencies, and the chapters (join wizard)',
      response: { 200: membershipOptionsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.options(tx, auth.tenantId);
    },
  });

  app.post('/api/memberships/price', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary:
        'Prices a choice: fee items at the chosen frequency, the term, its bills and the first invoice',
      body: membershipChoiceSchema,
      response: { 200: membershipPriceSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return (await service.priceChoice(tx, auth.tenantId, req.body)).price;
    },
  });

  app.post('/api/memberships/join', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'Staff sign a contact up for a membership: pending until approved or paid',
      body: joinMembershipSchema,
      response: { 200: joinAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const joined = await service.join(tx, auth, req.body);
      const invoiceId = await invoiceJoin(tx, app.services, auth.tenantId, joined.membership, joined.price);
      return {
        MembershipId: joined.membership.membershipId,
        Status: joined.membership.status,
        InvoiceId: invoiceId,
        Price: joined.price,
      };
    },
  });

  const transitions: MembershipTransition[] = ['approve', 'drop', 'reinstate'];
  for (const which of transitions) {
    app.post(`/api/memberships/memberships/:id/${which}`, {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['memberships'],
        summary: `Membership lifecycle: ${which}`,
        params: idParams,
        body: transitionBodySchema.optional(),
        response: { 200: membershipStateSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        return service.transition(tx, auth, auth.tenantId, req.params.id, which, {
          reason: req.body?.Reason ?? null,
        });
      },
    });
  }

  app.post('/api/memberships/memberships/:id/change/preview', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary:
        'What an upgrade or downgrade mid-term would bill: the credit for the unused old term and the new invoice',
      params: idParams,
      body: membershipChangeSchema,
      response: { 200: membershipChangeAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return previewChange(tx, auth.tenantId, req.params.id, req.body);
    },
  });

  app.post('/api/memberships/memberships/:id/change', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary:
        'Upgrades or downgrades a membership mid-term: a credit note for the unused old term applied to an invoice for the days left at the new price',
      params: idParams,
      body: membershipChangeSchema,
      response: { 200: membershipChangeAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return changeMembership(tx, app.services, auth, req.params.id, req.body);
    },
  });

  app.get('/api/memberships/memberships/:id/members', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'An organisation’s secondary members (SecondaryMemberList) and the limit its level sets',
      params: idParams,
      response: { 200: secondaryMembersSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return secondary.list(tx, auth.tenantId, req.params.id);
    },
  });

  app.post('/api/memberships/memberships/:id/members', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'Adds a secondary member to an organisation’s membership, within its level’s limit',
      params: idParams,
      body: addSecondaryMemberSchema,
      response: { 200: secondaryMembersSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return secondary.add(tx, auth, req.params.id, req.body.ContactId);
    },
  });

  app.delete('/api/memberships/memberships/:id/members/:contactId', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'Removes a secondary member from an organisation’s membership',
      params: memberParams,
      response: { 200: secondaryMembersSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return secondary.remove(tx, auth, req.params.id, req.params.contactId);
    },
  });

  app.get('/api/memberships/public/:tenantId/options', {
    config: { permission: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
    schema: {
      tags: ['memberships'],
      summary:
        'The public join page: the association’s name and its open membership types (no session needed)',
      params: tenantParams,
      response: { 200: publicJoinOptionsSchema },
    },
    handler: (req) =>
      withTenantTx(app.database.db, { tenantId: req.params.tenantId }, (tx) =>
        publicOptions(tx, req.params.tenantId),
      ),
  });

  app.post('/api/memberships/public/:tenantId/price', {
    config: { permission: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: {
      tags: ['memberships'],
      summary: 'The public join page’s live price of a choice (no session needed)',
      params: tenantParams,
      body: membershipChoiceSchema,
      response: { 200: membershipPriceSchema },
    },
    handler: (req) =>
      withTenantTx(app.database.db, { tenantId: req.params.tenantId }, async (tx) => {
        const { JoinDate: _ignored, ...choice } = req.body;
        return (await service.priceChoice(tx, req.params.tenantId, choice)).price;
      }),
  });

  app.post('/api/memberships/public/:tenantId/join', {
    config: { permission: 'public', rateLimit: { max: PUBLIC_JOINS_PER_MINUTE, timeWindow: '1 minute' } },
    schema: {
      tags: ['memberships'],
      summary:
        'Joins online without an account: the contact (matched by email or created), the membership and its first invoice',
      params: tenantParams,
      body: publicJoinSchema,
      response: { 200: publicJoinAnswerSchema },
    },
    handler: (req) =>
      withTenantTx(app.database.db, { tenantId: req.params.tenantId }, (tx) =>
        publicJoin(tx, app.services, req.params.tenantId, req.body),
      ),
  });

  app.get('/api/memberships/counts', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'Dashboard counts: active members, renewals due in 30 days, lapsed this month, by status',
      response: { 200: membershipCountsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return counts(tx, auth.tenantId);
    },
  });

  app.get('/api/mic/memberships', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['memberships'],
      summary: 'The member’s own memberships: status, term, fees, the open invoice and autopay',
      response: { 200: myMembershipsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return { Memberships: await member.myMemberships(tx, auth, await ownContactIdIfAny(req)) };
    },
  });

  app.put('/api/mic/memberships/:id/autopay', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['memberships'],
      summary: 'The member turns autopay of their own membership on or off',
      params: idParams,
      body: autoPayBodySchema,
      response: { 200: myMembershipsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return {
        Memberships: await member.setMyAutoPay(
          tx,
          auth,
          await ownContactIdIfAny(req),
          req.params.id,
          req.body.AutoPay,
        ),
      };
    },
  });

  app.get('/api/memberships/renewals/preview', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'The renewal run before it runs: how many are due today, the first ones with their new prices',
      response: { 200: renewalPreviewSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return previewRenewals(tx, auth.tenantId);
    },
  });

  app.post('/api/memberships/renewals/run', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary:
        'Starts the renewal run: renewal invoices, autopay charges, grace and lapse, reminders (idempotent)',
      response: { 200: renewalRunSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return runs.startRun(tx, app.services, auth);
    },
  });

  app.get('/api/memberships/renewals/runs', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'The latest renewal runs with their progress and results',
      response: { 200: renewalRunsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return { Runs: await runs.runs(tx, auth.tenantId) };
    },
  });

  app.get('/api/memberships/renewals/runs/:id', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['memberships'],
      summary: 'A renewal run with the renewal invoices it made',
      params: idParams,
      response: { 200: renewalRunDetailSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return runs.runDetail(tx, auth.tenantId, req.params.id);
    },
  });
};
