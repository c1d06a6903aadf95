import { isTrialOver, TRIAL_ENDED_MESSAGE, trialDaysLeft } from '@guildhall/shared';
import { Alert } from '@mantine/core';
import { IconClockHour4, IconLock } from '@tabler/icons-react';
import { useIdentity } from './identity.ts';

/** Days left at which the trial's end is announced on every back-office page. */
const ANNOUNCE_DAYS = 7;

/**
 * The association's trial: once it has ended, a red banner on every back-office page says the back office is
 * read-only and nothing was deleted (changes answer 403 TrialEnded); in its last week, a notice of the days left.
 */
export function TrialBanner() {
  const me = useIdentity();
  const endsAt = me.tenant.settings.trialEndsAt;
  if (!endsAt || me.area !== 'backoffice') return null;
  const now = new Date();
  if (isTrialOver(endsAt, now)) {
    return (
      <Alert
        color="red"
        variant="filled"
        mb="md"
        role="alert"
        icon={<IconLock aria-hidden />}
        title="Read-only: the trial has ended"
      >
        {TRIAL_ENDED_MESSAGE}
      </Alert>
    );
  }
  const days = trialDaysLeft(endsAt, now);
  if (days > ANNOUNCE_DAYS) return null;
  return (
    <Alert color="yellow" variant="light" mb="md" icon={<IconClockHour4 aria-hidden />}>
      {days === 0 ? 'Your trial ends today.' : `Your trial ends in ${days} day${days === 1 ? '' : 's'}.`}{' '}
      Afterwards the back office becomes read-only until you subscribe; nothing is deleted.
    </Alert>
  );
}
