import { useQueryClient } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PrivacyGate, TermsGate } from '../features/terms/index.ts';
import { ErrorBlock } from '../platform/error-block.tsx';
import { FullPageLoader } from '../platform/full-page-loader.tsx';
import { areaHome, PROMPT_PATHS, pendingPromptPath, signedOutReason, useMe } from '../platform/identity.ts';

const promptPaths: readonly string[] = Object.values(PROMPT_PATHS);

/**
 * The signed-in part of the app. Loads `me`; without a session goes to sign-in; with a pending security
 * prompt goes to that prompt first; then shows the product under the terms-of-use gate.
 */
export function RequireAuth() {
  const queryClient = useQueryClient();
  const location = useLocation();
  const me = useMe();

  if (me.isPending) return <FullPageLoader label="Loading your account" />;
  if (me.isError) {
    return (
      <main style={{ maxWidth: 640, margin: '48px auto', padding: 16 }}>
        <h1 style={{ fontSize: 22 }}>We could not load your account</h1>
        <ErrorBlock error={me.error} onRetry={() => void me.refetch()} />
      </main>
    );
  }
  if (me.data === null) {
    const reason = signedOutReason(queryClient);
    const here = `${location.pathname}${location.search}`;
    const keepPlace = reason === undefined || reason === 'session-ended';
    const to = keepPlace && here !== '/' ? `/sign-in?next=${encodeURIComponent(here)}` : '/sign-in';
    return <Navigate to={to} replace state={{ reason }} />;
  }

  const prompt = pendingPromptPath(me.data);
  const onPrompt = promptPaths.includes(location.pathname);
  if (prompt && location.pathname !== prompt) return <Navigate to={prompt} replace />;
  if (!prompt && onPrompt) return <Navigate to={areaHome(me.data)} replace />;

  return (
    <>
      <Outlet />
      {prompt ? null : <TermsGate me={me.data} />}
      {prompt ? null : <PrivacyGate me={me.data} />}
    </>
  );
}

/** `/`: the home of the signed-in user's area (spec 000 section 6), or sign-in. */
export function HomeRedirect() {
  const me = useMe();
  if (me.isPending) return <FullPageLoader />;
  if (me.isError || !me.data) return <Navigate to="/sign-in" replace />;
  return <Navigate to={pendingPromptPath(me.data) ?? areaHome(me.data)} replace />;
}
