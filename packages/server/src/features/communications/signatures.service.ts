/** A staff member's signatures: listed, written (sanitized), deleted, one made the default. */
import { signatures, type Tx } from '@guildhall/db';
import type { Signature, SignatureInput } from '@guildhall/shared';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { AuthContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { sanitizeRichText } from '../../platform/html.ts';

const shape = (r: typeof signatures.$inferSelect): Signature => ({
  SignatureId: r.signatureId,
  Name: r.name,
  SignatureHtml: r.signatureHtml,
  IsDefault: r.isDefault,
});

const mine = (auth: AuthContext) =>
  and(eq(signatures.tenantId, auth.tenantId), eq(signatures.userId, auth.userId));

export async function currentUserSignatures(tx: Tx, auth: AuthContext): Promise<Signature[]> {
  const rows = await tx
    .select()
    .from(signatures)
    .where(mine(auth))
    .orderBy(desc(signatures.isDefault), asc(signatures.name), asc(signatures.signatureId));
  return rows.map(shape);
}

async function clearDefault(tx: Tx, auth: AuthContext, except: number) {
  await tx
    .update(signatures)
    .set({ isDefault: false })
    .where(and(mine(auth), ne(signatures.signatureId, except), eq(signatures.isDefault, true)));
}

export async function createSignature(tx: Tx, auth: AuthContext, input: SignatureInput): Promise<Signature> {
  const existing = await tx
    .select({ id: signatures.signatureId })
    .from(signatures)
    .where(mine(auth))
    .limit(1);
  const [row] = await tx
    .insert(signatures)
    .values({
      tenantId: auth.tenantId,
      userId: auth.userId,
      name: input.Name,
      signatureHtml: sanitizeRichText(input.SignatureHtml),
      // A user's first signature is their default.
      isDefault: input.IsDefault ?? existing.length === 0,
    })
    .returning();
  if (!row) throw new Error('signature insert returned nothing');
  if (row.isDefault) await clearDefault(tx, auth, row.signatureId);
  return shape(row);
}

export async function updateSignature(
  tx: Tx,
  auth: AuthContext,
  id: number,
  input: SignatureInput,
): Promise<Signature> {
  const [row] = await tx
    .update(signatures)
    .set({
      name: input.Name,
      signatureHtml: sanitizeRichText(input.SignatureHtml),
      ...(input.IsDefault === undefined ? {} : { isDefault: input.IsDefault }),
      updatedAt: new Date(),
    })
    .where(and(mine(auth), eq(signatures.signatureId, id)))
    .returning();
  if (!row) throw notFound();
  if (row.isDefault) await clearDefault(tx, auth, row.signatureId);
  return shape(row);
}

export async function deleteSignature(tx: Tx, auth: AuthContext, id: number): Promise<void> {
  const [row] = await tx
    .delete(signatures)
    .where(and(mine(auth), eq(signatures.signatureId, id)))
    .returning();
  if (!row) throw notFound();
  if (row.isDefault) {
    // Another signature (the first by name) becomes the default, so a user with signatures always has one.
    const [next] = await tx
      .select()
      .from(signatures)
      .where(mine(auth))
      .orderBy(asc(signatures.name))
      .limit(1);
    if (next)
      await tx
        .update(signatures)
        .set({ isDefault: true })
        .where(and(mine(auth), eq(signatures.signatureId, next.signatureId)));
  }
}

export async function makeDefault(tx: Tx, auth: AuthContext, id: number): Promise<Signature> {
  const [row] = await tx
    .update(signatures)
    .set({ isDefault: true })
    .where(and(mine(auth), eq(signatures.signatureId, id)))
    .returning();
  if (!row) throw notFound();
  await clearDefault(tx, auth, id);
  return shape(row);
}
