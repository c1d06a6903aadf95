import { type Association, loginBody, type Me, needsAssociationChoice } from '@guildhall/shared';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { FullPageLoader } from '../../platform/full-page-loader.tsx';
import {
  clearSignedOutReason,
  landingPath,
  pendingPromptPath,
  SIGNED_OUT_NOTICES,
  type SignedOutReason,
  switchIdentity,
  useMe,
} from '../../platform/identity.ts';
import { usePageTitle } from '../../platform/page-title.ts';
import { PasswordField } from './password-field.tsx';
import { formatClock, formatWait, useCountdown } from './use-countdown.ts';

function isReason(value: unknown): value is SignedOutReason {
  return typeof value === 'string' && value in SIGNED_OUT_NOTICES;
}

/** Sign-in: username and password, one generic message for wrong credentials, 429 with the wait. */
export function SignInPage() {
  usePageTitle('Sign in');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const next = params.get('next');
  const me = useMe();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ username?: string; password?: string }>({});
  /** The throttled username and until when (the server counts failures per username and address). */
  const [lock, setLock] = useState<{ username: string; until: number; seconds: number } | null>(null);
  const waitSeconds = useCountdown(lock?.until ?? null);
  const errorRef = useRef<HTMLDivElement>(null);
  const state: unknown = location.state;
  const reason =
    typeof state === 'object' && state !== null && 'reason' in state && isReason(state.reason)
      ? state.reason
      : null;

  const login = useMutation({
    mutationFn: (body: { username: string; password: string }) =>
      api.post<Me>('/api/auth/login', body, { expectUnauthorized: true }),
    onSuccess: async (signedIn) => {
      clearSignedOutReason(queryClient);
      switchIdentity(queryClient, signedIn);
      // A person of several associations lands in the one they used last; with none remembered they choose one
      // first (after any security prompt, which comes first).
      if (!pendingPromptPath(signedIn)) {
        const mine = await api.get<Association[]>('/api/auth/associations').catch(() => [] as Association[]);
        if (needsAssociationChoice(mine)) {
          const query = next ? `?next=${encodeURIComponent(next)}` : '';
          await navigate(`/prompts/choose-association${query}`, { replace: true });
          return;
        }
      }
      await navigate(landingPath(signedIn, next), { replace: true });
    },
    onError: (error) => {
      setPassword('');
      if (isApiError(error) && error.status === 429) {
        const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds ?? 60));
        setLock({ username, until: Date.now() + seconds * 1000, seconds });
      }
      window.requestAnimationFrame(() => errorRef.current?.focus());
    },
  });

  // Already signed in (a bookmark, the back button): go where a sign-in would have gone.
  if (me.isPending) return <FullPageLoader />;
  if (me.data && !login.isPending && !login.isSuccess)
    return <Navigate to={landingPath(me.data, next)} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginBody.safeParse({ username, password });
    if (!parsed.success) {
      const errors: { username?: string; password?: string } = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if (key === 'username' || key === 'password') errors[key] ??= issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    login.mutate(parsed.data);
  };

  const throttled = isApiError(login.error) && login.error.status === 429;
  const locked = !!lock && lock.username === username && waitSeconds > 0;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2" id="sign-in-title">
            Sign in
          </Title>
          <Text c="dimmed" size="sm">
            Welcome back. Sign in with your Guildhall username.
          </Text>
        </div>

        {reason && !login.error ? (
          <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />} role="status">
            {SIGNED_OUT_NOTICES[reason]}
          </Alert>
        ) : null}

        {login.error ? (
          throttled ? (
            <ErrorBlock
              ref={errorRef}
              title="Too many attempts"
              message={
                lock
                  ? `${login.error.message} You can try again at ${formatClock(lock.until)} (in ${formatWait(lock.seconds)}).`
                  : login.error.message
              }
              isKnown
            />
          ) : (
            <ErrorBlock ref={errorRef} title="Could not sign you in" error={login.error} />
          )
        ) : null}

        <TextInput
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          error={fieldErrors.username}
          onChange={(e) => setUsername(e.currentTarget.value)}
          data-autofocus
          autoFocus
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          error={fieldErrors.password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Button type="submit" fullWidth loading={login.isPending} disabled={locked}>
          Sign in
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/forgot-password">
            Forgot your password?
          </Anchor>
        </Text>
        <Text size="sm" ta="center" c="dimmed">
          New to Guildhall?{' '}
          <Anchor component={Link} to="/signup">
            Start a free trial
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
