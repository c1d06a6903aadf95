import {
  type Database,
  privacyAcceptances,
  rowsOf,
  tenants,
  termsAcceptances,
  termsOfUse,
  users,
} from '@guildhall/db';
import {
  type LoginType,
  loginTypeFromId,
  MESSAGES,
  type PrivacyPolicyActionBody,
  type TermsActionBody,
} from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import { type AuthContext, tenantTx } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import { revokeSession } from '../../platform/session.ts';
import { privacyPolicyVersion } from '../auth/auth.module.ts';

/**
 * Accept or decline the association's privacy policy (the acceptance modal of spec 000 s2). Accepting records the
 * version the user read, as proof of consent; declining signs the user out. A version that is no longer the
 * association's policy (it changed while the modal was open) is refused, so that nobody accepts a text they did not see.
 */
export async function privacyPolicyAction(
  database: Database,
  auth: AuthContext,
  body: PrivacyPolicyActionBody,
): Promise<{ SignedOut: boolean }> {
  if (auth.impersonatorUserId)
    throw new HttpError(
      403,
      'A privacy policy is accepted by the user themselves, not while working as them.',
    );
  await tenantTx(database, auth, async (tx) => {
    const [tenant] = await tx
      .select({ settings: tenants.settings })
      .from(tenants)
      .where(eq(tenants.id, auth.tenantId));
    const settings = (tenant?.settings ?? {}) as Record<string, unknown>;
    const text = typeof settings.privacyPolicy === 'string' ? settings.privacyPolicy.trim() : '';
    if (!text) throw new HttpError(404, 'This association has no privacy policy to accept.');
    if (privacyPolicyVersion(text) !== body.Version)
      throw new HttpError(409, 'The privacy policy has changed since it was shown. Please read it again.');
    if (body.IsAccepted)
      await tx
        .insert(privacyAcceptances)
        .values({ tenantId: auth.tenantId, userId: auth.userId, policyVersion: body.Version })
        .onConflictDoNothing();
    await audit(tx, auth, {
      action: body.IsAccepted ? 'privacy-policy-accept' : 'privacy-policy-decline',
      entity: 'user',
      entityId: auth.userId,
      after: { Version: body.Version },
    });
  });
  if (!body.IsAccepted) await revokeSession(database, auth.sessionId);
  return { SignedOut: !body.IsAccepted };
}

/** Accept or decline terms of use (spec 000 sections 4 and 7). Declining signs the user out. */
export async function takeAction(
  database: Database,
  auth: AuthContext,
  body: TermsActionBody,
): Promise<{ SignedOut: boolean }> {
  const loginType = loginTypeFromId(body.UserLoginTypeId);
  if (!loginType || loginType !== auth.loginType)
    throw new HttpError(400, 'These terms are not for your kind of account.');
  if (auth.impersonatorUserId)
    throw new HttpError(403, 'Terms are accepted by the user themselves, not while working as them.');
  await tenantTx(database, auth, async (tx) => {
    const [terms] = await tx
      .select({ id: termsOfUse.id, loginType: termsOfUse.loginType })
      .from(termsOfUse)
      .where(and(eq(termsOfUse.tenantId, auth.tenantId), eq(termsOfUse.id, body.TermsOfUseId)))
      .limit(1);
    if (!terms || terms.loginType !== loginType) throw new HttpError(404, MESSAGES.notFound);
    await tx
      .insert(termsAcceptances)
      .values({ tenantId: auth.tenantId, termsId: terms.id, userId: auth.userId, accepted: body.IsAccepted })
      .onConflictDoUpdate({
        target: [termsAcceptances.tenantId, termsAcceptances.termsId, termsAcceptances.userId],
        set: { accepted: body.IsAccepted, actedAt: new Date() },
      });
    await audit(tx, auth, {
      action: body.IsAccepted ? 'terms-accept' : 'terms-decline',
      entity: 'terms_of_use',
      entityId: terms.id,
    });
  });
  if (!body.IsAccepted) await revokeSession(database, auth.sessionId);
  return { SignedOut: !body.IsAccepted };
}

/** The latest terms of each login type (the ones in force), with their publisher and their acceptances. */
export async function currentTerms(database: Database, auth: AuthContext) {
  return tenantTx(database, auth, async (tx) => {
    const r = await tx.execute(sql`
      select distinct on (t.login_type)
             t.id, t.login_type, t.title, t.description, t.published_at, u.display_name as published_by,
             (select count(*)::int from terms_acceptances a where a.tenant_id = t.tenant_id and a.terms_id = t.id and a.accepted) as accepted_count
        from terms_of_use t left join users u on u.id = t.published_by
       order by t.login_type, t.id desc`);
    return rowsOf<{
      id: string | number;
      login_type: LoginType;
      title: string;
      description: string;
      published_at: string | Date;
      published_by: string | null;
      accepted_count: number;
    }>(r).map((t) => ({
      TermsOfUseId: Number(t.id),
      LoginType: t.login_type,
      Title: t.title,
      Description: t.description,
      PublishedAt: new Date(t.published_at).toISOString(),
      PublishedBy: t.published_by,
      AcceptedCount: t.accepted_count,
    }));
  });
}

/** Publishing makes the new terms pending for every user of that login type in the tenant. */
export async function publishTerms(
  database: Database,
  auth: AuthContext,
  input: { LoginType: LoginType; Title: string; Description: string },
) {
  const created = await tenantTx(database, auth, async (tx) => {
    const [row] = await tx
      .insert(termsOfUse)
      .values({
        tenantId: auth.tenantId,
        loginType: input.LoginType,
        title: input.Title,
        description: input.Description,
        publishedBy: auth.impersonatorUserId ?? auth.userId,
      })
      .returning();
    if (!row) throw new Error('terms insert returned nothing');
    await audit(tx, auth, { action: 'create', entity: 'terms_of_use', entityId: row.id, after: row });
    return row;
  });
  const [publisher] = await database.db
    .select({ name: users.displayName })
    .from(users)
    .where(eq(users.id, created.publishedBy ?? 0));
  return {
    TermsOfUseId: created.id,
    LoginType: created.loginType,
    Title: created.title,
    Description: created.description,
    PublishedAt: created.publishedAt.toISOString(),
    PublishedBy: publisher?.name ?? null,
    AcceptedCount: 0,
  };
}
