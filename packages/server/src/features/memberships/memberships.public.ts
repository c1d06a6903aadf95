/**
 * Joining online without an account (the association's public join page): the open types and a live price, then
 * the join itself, which matches the person by email among live contacts or creates them as a prospect (an
 * organisation type creates the organisation, the person's email on it), then makes the membership and its first
 * invoice exactly as staff do. The route is rate-limited; the answer names the invoice to pay.
 */
import { q, runFragment, type Tx } from '@guildhall/db';
import {
  currencyCode,
  type PublicJoin,
  type PublicJoinAnswer,
  type PublicJoinOptions,
} from '@guildhall/shared';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { billingApi } from '../billing/billing.module.ts';
import { invoiceJoin } from './memberships.billing.ts';
import * as repo from './memberships.repo.ts';
import { join, options } from './memberships.service.ts';

export async function publicOptions(tx: Tx, tenantId: string): Promise<PublicJoinOptions> {
  const [tenant] = await runFragment<{ name: string; currency: string | null }>(
    tx,
    q`select name, settings->>'currency' as currency from tenants where id = ${tenantId}`,
  );
  if (!tenant) throw notFound();
  return {
    Association: tenant?.name ?? '',
    Currency: currencyCode(tenant?.currency),
    ...(await options(tx, tenantId)),
  };
}

async function matchOrCreate(
  tx: Tx,
  tenantId: string,
  who: PublicJoin,
  organization: boolean,
): Promise<number> {
  const [found] = await runFragment<{ contact_id: number | string }>(
    tx,
    organization
      ? q`select contact_id from contacts where tenant_id = ${tenantId} and contact_type = 'organization'
            and lower(email) = lower(${who.Email}) and not is_deleted order by contact_id limit 1`
      : q`select contact_id from contacts where tenant_id = ${tenantId} and contact_type = 'individual'
            and lower(email) = lower(${who.Email}) and not is_deleted order by contact_id limit 1`,
  );
  if (found) return Number(found.contact_id);
  const orgName = who.Organization?.trim() ?? '';
  const [created] = await runFragment<{ contact_id: number | string }>(
    tx,
    organization
      ? q`insert into contacts (tenant_id, contact_type, organization_name, first_name, last_name, display_name,
            status, email)
          values (${tenantId}, 'organization', ${orgName}, ${who.FirstName}, ${who.LastName}, ${orgName}, 'prospect',
            ${who.Email})
          returning contact_id`
      : q`insert into contacts (tenant_id, contact_type, first_name, last_name, display_name, status, email)
          values (${tenantId}, 'individual', ${who.FirstName}, ${who.LastName},
            ${`${who.LastName}, ${who.FirstName}`}, 'prospect', ${who.Email})
          returning contact_id`,
  );
  return Number(created?.contact_id);
}

export async function publicJoin(
  tx: Tx,
  services: Services,
  tenantId: string,
  input: PublicJoin,
): Promise<PublicJoinAnswer> {
  const type = await repo.membershipType(tx, tenantId, input.MembershipTypeId);
  if (!type || !type.isActive)
    throw badRequest('Choose a membership type.', { MembershipTypeId: ['Unknown membership type.'] });
  if (type.isOrganization && !input.Organization?.trim())
    throw badRequest('Enter the organisation’s name.', { Organization: ['Enter the organisation’s name.'] });
  const contactId = await matchOrCreate(tx, tenantId, input, type.isOrganization);
  const joined = await join(
    tx,
    { tenantId, userId: null as unknown as number, impersonatorUserId: null },
    {
      ContactId: contactId,
      MembershipTypeId: input.MembershipTypeId,
      MembershipLevelId: input.MembershipLevelId ?? null,
      ChapterId: input.ChapterId ?? null,
      BillFrequencyTypeId: input.BillFrequencyTypeId ?? null,
      Units: input.Units ?? null,
      Notes: 'Joined online',
    },
  );
  const invoiceId = await invoiceJoin(tx, services, tenantId, joined.membership, joined.price);
  const invoice = invoiceId === null ? null : await billingApi.invoiceSummary(tx, tenantId, invoiceId);
  return {
    MembershipId: joined.membership.membershipId,
    Status: joined.membership.status,
    InvoiceId: invoiceId,
    InvoiceNumber: invoice?.number ?? null,
    FirstBill: joined.price.FirstBill,
    message: invoice
      ? `Welcome! Your ${joined.membership.name} membership starts once invoice ${invoice.number} is paid.`
      : `Welcome! Your ${joined.membership.name} membership is ${joined.membership.status}.`,
  };
}
