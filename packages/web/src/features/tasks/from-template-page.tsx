/**
 * A new project from a template: choose the template, name the project and give its due date; its tasks are made
 * due at their offsets from that date (120 days before, on the day…), at their time of day in the association's
 * timezone, assigned to the owner.
 */
import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { useIdentity } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { projectPath, tasksApi } from './tasks-api.ts';

/** A row of the users resource's list (`GET /api/setup/users`), the fields an owner is chosen by. */
interface StaffOption {
  UserId: number;
  DisplayName: string;
  LoginType: string;
  IsActive: boolean;
}

export function FromTemplatePage() {
  const me = useIdentity();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const templates = useQuery({ queryKey: ['tasks', 'templates'], queryFn: () => tasksApi.templates() });
  const users = useQuery({
    queryKey: ['tasks', 'staff'],
    queryFn: async () =>
      (await api.get<{ Results: StaffOption[] }>('/api/setup/users?$top=1000&$orderby=DisplayName')).Results,
  });
  const [templateId, setTemplateId] = useState<string | null>(params.get('template'));
  const [name, setName] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [owner, setOwner] = useState<string | null>(String(me.user.id));
  const create = useMutation({
    mutationFn: () =>
      tasksApi.fromTemplate(Number(templateId), {
        Name: name,
        DueDate: dueDate,
        OwnerUserId: owner ? Number(owner) : null,
      }),
    onSuccess: async (made) => {
      notifySaved(`The project was created with ${made.TaskCount} task${made.TaskCount === 1 ? '' : 's'}.`);
      await queryClient.invalidateQueries({ queryKey: ['tasks'] });
      navigate(projectPath(made.ProjectId, 'board'));
    },
  });
  if (templates.error) return <ErrorBlock error={templates.error} onRetry={() => void templates.refetch()} />;
  if (!templates.data) return <LoadingBlock />;
  const chosen = templates.data.Templates.find((t) => String(t.TemplateId) === templateId);
  const fieldErrors = isApiError(create.error) ? (create.error.errors ?? {}) : {};
  const staff = (users.data ?? []).filter((u) => u.LoginType === 'staff' && u.IsActive);
  return (
    <>
      <PageHeader
        title="New project from a template"
        description="The template's tasks are created with due dates counted from the project's due date"
        actions={
          <Button component={Link} to="/micronet/list/tasks/templates" variant="subtle">
            Manage templates
          </Button>
        }
      />
      {templates.data.Templates.length === 0 ? (
        <Alert color="gray" title="No template yet">
          Create a template under Setup, Project templates: its tasks, each with its number of days before or
          after the project's due date.
        </Alert>
      ) : (
        <Paper withBorder p="md" maw={560}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate();
            }}
          >
            <Stack gap="sm">
              <Select
                label="Template"
                required
                data={templates.data.Templates.map((t) => ({
                  value: String(t.TemplateId),
                  label: `${t.Name} (${t.TaskCount} task${t.TaskCount === 1 ? '' : 's'})`,
                }))}
                value={templateId}
                onChange={(v) => {
                  setTemplateId(v);
                  const t = templates.data.Templates.find((x) => String(x.TemplateId) === v);
                  if (t && name === '') setName(`${t.Name} ${new Date().getFullYear()}`);
                }}
              />
              {chosen?.Description ? (
                <Text size="sm" c="dimmed">
                  {chosen.Description}
                </Text>
              ) : null}
              <TextInput
                label="Project name"
                required
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={fieldErrors.Name?.[0]}
              />
              <TextInput
                label="Due date"
                description="Each task is due the template's number of days before or after this date."
                type="date"
                required
                value={dueDate}
                onChange={(e) => setDueDate(e.currentTarget.value)}
                error={fieldErrors.DueDate?.[0]}
              />
              <Select
                label="Owner"
                description="The project's owner is assigned every task; change assignees on the tasks later."
                data={staff.map((u) => ({ value: String(u.UserId), label: u.DisplayName }))}
                value={owner}
                onChange={setOwner}
                clearable
                error={fieldErrors.OwnerUserId?.[0]}
              />
              {create.error && Object.keys(fieldErrors).length === 0 ? (
                <ErrorBlock error={create.error} />
              ) : null}
              <Group justify="flex-end">
                <Button component={Link} to="/micronet/list/tasks/projects" variant="default">
                  Cancel
                </Button>
                <Button type="submit" loading={create.isPending} disabled={!templateId}>
                  Create the project
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
    </>
  );
}
