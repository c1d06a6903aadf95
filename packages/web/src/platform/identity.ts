import {
  displayTimeZone,
  FEATURE_FLAGS,
  type FeatureFlagKey,
  type Me,
  type Permission,
} from '@guildhall/shared';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { ApiError, api } from './api-client.ts';
import { setMoneyCurrency } from './money.ts';

export const meQueryKey = ['auth', 'me'] as const;

/** GET /api/auth/me; `null` means nobody is signed in (a 401 is an answer here, not an error). */
export async function fetchMe(signal?: AbortSignal): Promise<Me | null> {
  try {
    const me = await api.get<Me>('/api/auth/me', { signal, expectUnauthorized: true });
    setMoneyCurrency(me?.tenant.settings.currency);
    return me;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The signed-in identity (user, tenant, area, permissions, flags, prompts, impersonation). */
export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => fetchMe(signal),
    staleTime: 60_000,
  });
}

/**
 * The identity inside the signed-in part of the app, where the route guard has already loaded it. While the
 * app signs out, screens still mounted keep the last identity until the guard takes them away.
 */
export function useIdentity(): Me {
  const { data } = useMe();
  const last = useRef<Me | null>(data ?? null);
  if (data) last.current = data;
  if (!last.current) throw new Error('useIdentity is used outside the signed-in routes.');
  return last.current;
}

/** The time zone the signed-in user reads every time in: their own choice, else the association's. */
export function useDisplayTimeZone(): string {
  return displayTimeZone(useIdentity());
}

/** Replaces the identity after a call that answers `Me` (sign-in, prompts, impersonation). */
export function setMe(queryClient: QueryClient, me: Me | null): void {
  setMoneyCurrency(me?.tenant.settings.currency);
  queryClient.setQueryData(meQueryKey, me);
}

/** Forgets everything cached for the previous identity, keeping the new one. */
export function switchIdentity(queryClient: QueryClient, me: Me | null): void {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== meQueryKey[0] });
  setMe(queryClient, me);
}

/** Whether the signed-in user is the same person before and after (same user, same impersonation). */
export function sameIdentity(a: Me | null | undefined, b: Me | null | undefined): boolean {
  return (
    !!a &&
    !!b &&
    a.user.id === b.user.id &&
    (a.impersonation?.impersonator.id ?? null) === (b.impersonation?.impersonator.id ?? null)
  );
}

export function can(me: Me, permission: Permission): boolean {
  return me.permissions.includes(permission);
}

/** Per-user feature flag (spec 000 sections 1 and 6); a flag `me` does not mention takes its default. */
export function flagOn(me: Me, key: FeatureFlagKey): boolean {
  const value = me.featureFlags[key];
  if (value !== undefined) return value;
  return FEATURE_FLAGS.find((flag) => flag.key === key)?.defaultOn ?? false;
}

export function areaHome(me: Pick<Me, 'area'>): string {
  return me.area === 'backoffice' ? '/a' : '/m';
}

export const PROMPT_PATHS = {
  passwordReset: '/prompts/change-password',
  usernameChange: '/prompts/change-username',
  securityQuestion: '/prompts/security-question',
} as const;

/**
 * The security prompt the user must answer before using the product, if any (spec 000 section 6:
 * all of them are skipped while impersonating). A forced password change comes first.
 */
export function pendingPromptPath(me: Pick<Me, 'pendingPrompts' | 'impersonation'>): string | null {
  if (me.impersonation) return null;
  const p = me.pendingPrompts;
  if (p.passwordReset) return PROMPT_PATHS.passwordReset;
  if (p.usernameChange) return PROMPT_PATHS.usernameChange;
  if (p.securityQuestion) return PROMPT_PATHS.securityQuestion;
  return null;
}

/** Only same-site paths are honoured as a post-sign-in destination. */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  if (next.startsWith('/sign-in') || next.startsWith('/api/')) return null;
  return next;
}

/** Where a freshly signed-in user lands: the page they asked for if it is in their area, else their home. */
export function landingPath(me: Me, next: string | null): string {
  const prompt = pendingPromptPath(me);
  if (prompt) return prompt;
  const safe = safeNextPath(next);
  const home = areaHome(me);
  if (safe && (safe === home || safe.startsWith(`${home}/`))) return safe;
  return home;
}

/** Why the app left the signed-in part; the sign-in page explains it. */
export type SignedOutReason = 'signed-out' | 'declined-terms' | 'declined-privacy-policy' | 'session-ended';
const signedOutReasonKey = ['auth', 'signed-out-reason'] as const;

export const SIGNED_OUT_NOTICES: Record<SignedOutReason, string> = {
  'signed-out': 'You are signed out.',
  'declined-terms': 'You declined the terms of use, so you were signed out.',
  'declined-privacy-policy': 'You declined the privacy policy, so you were signed out.',
  'session-ended': 'Your session has ended. Sign in again to continue.',
};

/**
 * Forgets the identity and every cached answer; the route guard then sends the user to sign-in.
 * A session that simply ended keeps the current address as the place to come back to.
 */
export function signOutLocally(queryClient: QueryClient, reason: SignedOutReason): void {
  // A request answered 401 after the user signed out (declined the terms or the policy, signed out) says nothing
  // new: it must not replace the reason the sign-in page gives.
  if (
    reason === 'session-ended' &&
    queryClient.getQueryData(meQueryKey) === null &&
    signedOutReason(queryClient)
  )
    return;
  const isMe = (key: readonly unknown[]) => key[0] === meQueryKey[0] && key[1] === meQueryKey[1];
  void queryClient.cancelQueries({ predicate: (q) => !isMe(q.queryKey) });
  // The `me` query itself stays in the cache: its observers (the route guard) must see it turn null.
  queryClient.removeQueries({ predicate: (q) => !isMe(q.queryKey) });
  queryClient.setQueryData(signedOutReasonKey, reason);
  setMe(queryClient, null);
}

export function signedOutReason(queryClient: QueryClient): SignedOutReason | undefined {
  return queryClient.getQueryData<SignedOutReason>(signedOutReasonKey);
}

export function clearSignedOutReason(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: signedOutReasonKey, exact: true });
}

/** POST /api/auth/logout, then forget the identity. The answer does not matter: the session is gone either way. */
export async function signOut(
  queryClient: QueryClient,
  reason: SignedOutReason = 'signed-out',
): Promise<void> {
  try {
    await api.post('/api/auth/logout', undefined, { expectUnauthorized: true });
  } catch {
    // Already signed out, or offline: forgetting the identity locally is what matters.
  }
  signOutLocally(queryClient, reason);
}
