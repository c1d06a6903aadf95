import { formatDateInput } from '@guildhall/shared';
import { Badge, Button, Card, Group, Progress, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { notifyError, notifyInfo } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { eventsApi } from './events-api.ts';

/** A calendar day as every date of the product reads ("03/01/2027"). */
const day = (iso: string) => formatDateInput(iso.slice(0, 10));

/**
 * The member's certification programmes (`/m/events?tab=certifications`): those open to members, and for each one
 * they are registered in, their progress: credits earned by attending events within the period, out of those
 * required. Registering counts the credits already earned since today.
 */
export function MemberCertifications() {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['events', 'certifications'],
    queryFn: ({ signal }) => eventsApi.memberCertifications(signal),
  });
  const register = useMutation({
    mutationFn: eventsApi.memberRegisterCertification,
    onSuccess: (answer) => {
      notifyInfo(answer.message);
      void client.invalidateQueries({ queryKey: ['events', 'certifications'] });
    },
    onError: (e) => notifyError(e),
  });
  if (list.error) return <ErrorBlock error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <LoadingBlock />;
  if (list.data.length === 0)
    return <Text c="dimmed">The association has no certification programmes open to members.</Text>;
  return (
    <Stack gap="sm" maw={720}>
      {list.data.map((p) => {
        const r = p.Registration;
        const percent = r
          ? Math.min(100, Math.round((r.CreditsEarned / Math.max(1, r.RequiredCredits)) * 100))
          : 0;
        return (
          <Card key={p.ProgrammeId} withBorder padding="md" component="section" data-testid="certification">
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>{p.Name}</Text>
                {r ? (
                  <Badge color={r.Status === 'completed' ? 'green' : 'blue'} variant="light">
                    {r.Status === 'completed' ? 'Completed' : 'In progress'}
                  </Badge>
                ) : null}
              </Group>
              {p.Description ? (
                <Text size="sm" c="dimmed">
                  {p.Description}
                </Text>
              ) : null}
              {r ? (
                <>
                  <Text size="sm">
                    {r.CreditsEarned} of {r.RequiredCredits} credits earned, from {day(r.StartsOn)} to{' '}
                    {day(r.EndsOn)}
                  </Text>
                  <Progress
                    value={percent}
                    color={r.Status === 'completed' ? 'green' : 'blue'}
                    aria-label={`${p.Name}: ${r.CreditsEarned} of ${r.RequiredCredits} credits`}
                  />
                </>
              ) : (
                <Group justify="space-between">
                  <Text size="sm">
                    {p.RequiredCredits} credits within {p.PeriodMonths} months, earned by attending events.
                  </Text>
                  <Button
                    size="compact-sm"
                    loading={register.isPending && register.variables === p.ProgrammeId}
                    onClick={() => register.mutate(p.ProgrammeId)}
                    aria-label={`Register in ${p.Name}`}
                  >
                    Register
                  </Button>
                </Group>
              )}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
