/**
 * Factories: each test and the demo seed create their own tenants and users through these, as the application
 * role inside the tenant's scope, so tests isolate each other through tenancy.
 */

import { randomUUID } from 'node:crypto';
import {
  DEFAULT_TENANT_SETTINGS,
  type DecimalInput,
  type LoginType,
  type Role,
  type TenantSettings,
  toCents,
} from '@guildhall/shared';
import type { Db } from '../client.ts';
import { hashSecret } from '../passwords.ts';
import { tenantUsers, users } from '../schema/auth.ts';
import { payments, refunds } from '../schema/billing.ts';
import { helpTexts } from '../schema/help.ts';
import { tenants } from '../schema/platform.ts';
import { termsAcceptances, termsOfUse } from '../schema/terms.ts';
import { withTenantTx } from '../tenant-scope.ts';

export interface TenantRecord {
  id: string;
  name: string;
  slug: string;
}

export async function createTenant(
  db: Db,
  input: { name: string; slug?: string; settings?: Partial<TenantSettings> },
): Promise<TenantRecord> {
  const id = randomUUID();
  const slug = input.slug ?? `${slugify(input.name)}-${id.slice(0, 8)}`;
  await withTenantTx(db, { tenantId: id }, (tx) =>
    tx
      .insert(tenants)
      .values({ id, name: input.name, slug, settings: { ...DEFAULT_TENANT_SETTINGS, ...input.settings } }),
  );
  return { id, name: input.name, slug };
}

export interface UserInput {
  tenantId: string;
  username: string;
  password: string;
  role?: Role;
  loginType?: LoginType;
  email?: string;
  displayName?: string;
  /** When true (the default) the user has a security question already and sees no prompt for it. */
  hasSecurityQuestion?: boolean;
  isRequirePasswordReset?: boolean;
  mustChangeUsername?: boolean;
  featureFlags?: Record<string, boolean>;
}

export interface UserRecord {
  id: number;
  username: string;
  password: string;
  tenantId: string;
}

export async function createUser(db: Db, input: UserInput): Promise<UserRecord> {
  const role = input.role ?? 'staff';
  const loginType = input.loginType ?? (role === 'member' ? 'member' : 'staff');
  const passwordHash = await hashSecret(input.password);
  const answerHash = input.hasSecurityQuestion === false ? null : await hashSecret('seeded answer');
  return withTenantTx(db, { tenantId: input.tenantId }, async (tx) => {
    const [u] = await tx
      .insert(users)
      .values({
        username: input.username,
        email: input.email ?? `${input.username}@example.org`,
        displayName: input.displayName ?? titleCase(input.username),
        passwordHash,
        loginType,
        securityQuestionId: answerHash ? 1 : null,
        securityAnswerHash: answerHash,
        isRequirePasswordReset: input.isRequirePasswordReset ?? false,
        mustChangeUsername: input.mustChangeUsername ?? false,
      })
      .returning({ id: users.id });
    if (!u) throw new Error('user insert returned nothing');
    await tx
      .insert(tenantUsers)
      .values({ tenantId: input.tenantId, userId: u.id, role, featureFlags: input.featureFlags ?? {} });
    return { id: u.id, username: input.username, password: input.password, tenantId: input.tenantId };
  });
}

export async function addMembership(db: Db, tenantId: string, userId: number, role: Role): Promise<void> {
  await withTenantTx(db, { tenantId }, (tx) => tx.insert(tenantUsers).values({ tenantId, userId, role }));
}

export async function publishTerms(
  db: Db,
  input: {
    tenantId: string;
    loginType: LoginType;
    title?: string;
    description?: string;
    acceptedBy?: number[];
  },
): Promise<number> {
  return withTenantTx(db, { tenantId: input.tenantId }, async (tx) => {
    const [t] = await tx
      .insert(termsOfUse)
      .values({
        tenantId: input.tenantId,
        loginType: input.loginType,
        title: input.title ?? 'Terms of use',
        description:
          input.description ??
          'By using this service you agree to use it lawfully and keep your password safe.',
      })
      .returning({ id: termsOfUse.id });
    if (!t) throw new Error('terms insert returned nothing');
    for (const userId of input.acceptedBy ?? []) {
      await tx
        .insert(termsAcceptances)
        .values({ tenantId: input.tenantId, termsId: t.id, userId, accepted: true });
    }
    return t.id;
  });
}

export async function writeHelpText(
  db: Db,
  input: { tenantId: string; stateName: string; title: string; content: string },
): Promise<void> {
  await withTenantTx(db, { tenantId: input.tenantId }, (tx) => tx.insert(helpTexts).values(input));
}

function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function titleCase(username: string): string {
  return username
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

export interface PaymentInput {
  tenantId: string;
  /** What was paid, in major units (12.5 or '12.50'). */
  amount: DecimalInput;
  /** Refunds already made on the payment, in major units: one amount or several. */
  refunded?: DecimalInput | readonly DecimalInput[];
  contactId?: number | null;
  method?: string;
  reference?: string;
  paidAt?: Date;
  isDeleted?: boolean;
}

/** A payment (and its earlier refunds, if any) in the tenant; answers the payment id. */
export async function createPayment(db: Db, input: PaymentInput): Promise<number> {
  const refundAmounts =
    input.refunded === undefined ? [] : Array.isArray(input.refunded) ? input.refunded : [input.refunded];
  return withTenantTx(db, { tenantId: input.tenantId }, async (tx) => {
    const [p] = await tx
      .insert(payments)
      .values({
        tenantId: input.tenantId,
        amountCents: toCents(input.amount),
        refundedCents: refundAmounts.reduce<number>((sum, amount) => sum + toCents(amount), 0),
        contactId: input.contactId ?? null,
        method: input.method ?? 'card',
        reference: input.reference ?? null,
        paidAt: input.paidAt ?? new Date(),
        isDeleted: input.isDeleted ?? false,
      })
      .returning({ id: payments.id });
    if (!p) throw new Error('payment insert returned nothing');
    for (const amount of refundAmounts) {
      await tx
        .insert(refunds)
        .values({ tenantId: input.tenantId, paymentId: p.id, amountCents: toCents(amount) });
    }
    return p.id;
  });
}
