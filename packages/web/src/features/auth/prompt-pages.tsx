import { changeUsernameBody, type Me, SECURITY_QUESTIONS, securityQuestionBody } from '@guildhall/shared';
import { Button, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { landingPath, setMe, useIdentity } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { usePageTitle } from '../../platform/page-title.ts';
import { ChangePasswordForm } from './change-password-form.tsx';

/** After a prompt is answered: the next prompt, or the product. */
function useContinue() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (me: Me) => {
    setMe(queryClient, me);
    await navigate(landingPath(me, null), { replace: true });
  };
}

function PromptHeading({ title, children }: { title: string; children: React.ReactNode }) {
  const me = useIdentity();
  usePageTitle(title, me.tenant.name);
  return (
    <div>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed" size="sm">
        {children}
      </Text>
    </div>
  );
}

/** Forced password change (IsRequirePasswordReset): no current password asked. */
export function ChangePasswordPrompt() {
  const next = useContinue();
  return (
    <Stack gap="md">
      <PromptHeading title="Choose a new password">
        Your association asks you to choose a new password before you continue.
      </PromptHeading>
      <ChangePasswordForm
        requireCurrent={false}
        submitLabel="Save and continue"
        onChanged={(me) => {
          notifySaved('Your password has been changed.');
          void next(me);
        }}
      />
    </Stack>
  );
}

/** Forced username change. */
export function ChangeUsernamePrompt() {
  const me = useIdentity();
  const next = useContinue();
  const [username, setUsername] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const change = useMutation({
    mutationFn: (newUsername: string) => api.post<Me>('/api/auth/change-username', { newUsername }),
    onSuccess: (updated) => {
      notifySaved(`Your username is now ${updated.user.username}.`);
      void next(updated);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = changeUsernameBody.safeParse({ newUsername: username });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    change.mutate(parsed.data.newUsername);
  };
  const serverField = isApiError(change.error) ? change.error.fieldError('newUsername') : undefined;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <PromptHeading title="Choose a new username">
          Your association asks you to choose a new username before you continue. Your current one is{' '}
          <strong>{me.user.username}</strong>.
        </PromptHeading>
        {change.error && !serverField ? (
          <ErrorBlock error={change.error} title="Your username was not changed" />
        ) : null}
        <TextInput
          label="New username"
          description="3 to 64 characters: letters, digits, dots, dashes, underscores and @."
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          error={fieldError ?? serverField}
          onChange={(e) => setUsername(e.currentTarget.value)}
          autoFocus
        />
        <Button type="submit" loading={change.isPending}>
          Save and continue
        </Button>
      </Stack>
    </form>
  );
}

/** Set a security question (GET /api/auth/security-questions, POST /api/auth/security-question). */
export function SecurityQuestionPrompt() {
  const next = useContinue();
  const questions = useQuery({
    queryKey: ['auth', 'security-questions'],
    queryFn: ({ signal }) =>
      api.get<Array<{ Id: number; Text: string }>>('/api/auth/security-questions', { signal }),
    placeholderData: [...SECURITY_QUESTIONS],
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [questionId, setQuestionId] = useState<string | null>(null);
  const [answer, setAnswer] = useState('');
  const [errors, setErrors] = useState<{ question?: string; answer?: string }>({});
  const save = useMutation({
    mutationFn: (body: { SecurityQuestionId: number; Answer: string }) =>
      api.post<Me>('/api/auth/security-question', body),
    onSuccess: (me) => {
      notifySaved('Your security question is set.');
      void next(me);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = securityQuestionBody.safeParse({
      SecurityQuestionId: Number(questionId ?? 0),
      Answer: answer,
    });
    if (!parsed.success) {
      const found: { question?: string; answer?: string } = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'SecurityQuestionId') found.question ??= 'Choose a question.';
        if (issue.path[0] === 'Answer') found.answer ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };
  const data = (questions.data ?? []).map((q) => ({ value: String(q.Id), label: q.Text }));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <PromptHeading title="Set a security question">
          Choose a question and an answer only you know. We ask it when you need help getting back into your
          account.
        </PromptHeading>
        {save.error ? <ErrorBlock error={save.error} title="Your security question was not saved" /> : null}
        {questions.isError ? (
          <ErrorBlock error={questions.error} onRetry={() => void questions.refetch()} />
        ) : null}
        <Select
          label="Security question"
          placeholder="Choose a question"
          data={data}
          value={questionId}
          onChange={setQuestionId}
          required
          error={errors.question}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="Answer"
          description="At least 2 characters. Write it the way you will remember it."
          autoComplete="off"
          required
          value={answer}
          error={errors.answer ?? (isApiError(save.error) ? save.error.fieldError('Answer') : undefined)}
          onChange={(e) => setAnswer(e.currentTarget.value)}
        />
        <Button type="submit" loading={save.isPending}>
          Save and continue
        </Button>
      </Stack>
    </form>
  );
}
