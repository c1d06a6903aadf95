import {
  displayTimeZone,
  MAINTENANCE_POLL_MS,
  type Maintenance,
  STATUS_POLL_MS,
  type Status,
} from '@guildhall/shared';
import { ActionIcon, Box, Button, Collapse, Group, Indicator, Paper, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconSpeakerphone, IconTool } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { api } from './api-client.ts';
import { formatDateTime } from './format.ts';
import { useIdentity } from './identity.ts';

export const statusKey = ['status'] as const;
export const maintenanceKey = ['status', 'maintenance'] as const;

const LEVEL_COLOR: Record<Status['Level'], string> = { info: 'blue', warning: 'yellow', critical: 'red' };
const LEVEL_LABEL: Record<Status['Level'], string> = {
  info: 'Status message',
  warning: 'Status warning',
  critical: 'Critical status message',
};

/** Polls the status every 60,000 ms (spec 000 section 9). */
export function useStatus() {
  return useQuery({
    queryKey: statusKey,
    queryFn: ({ signal }) => api.get<Status>('/api/status', { signal }),
    refetchInterval: STATUS_POLL_MS,
    staleTime: STATUS_POLL_MS / 2,
    retry: 1,
  });
}

/** Polls the maintenance notice every 3,600,000 ms (spec 000 section 9). */
export function useMaintenance() {
  return useQuery({
    queryKey: maintenanceKey,
    queryFn: ({ signal }) => api.get<Maintenance>('/api/status/maintenance', { signal }),
    refetchInterval: MAINTENANCE_POLL_MS,
    staleTime: MAINTENANCE_POLL_MS / 2,
    retry: 1,
  });
}

function maintenanceIsCurrent(m: Maintenance | undefined, now = Date.now()): m is Maintenance {
  if (!m || m.Message.trim() === '') return false;
  return m.EndsAt === null || new Date(m.EndsAt).getTime() > now;
}

interface StatusBannerState {
  status: Status | undefined;
  expanded: boolean;
  /** Opens the banner; this acknowledges the message (spec 000 section 4). */
  open: () => void;
  toggle: () => void;
  bannerId: string;
  bannerRef: React.RefObject<HTMLDivElement | null>;
}

const StatusBannerContext = createContext<StatusBannerState | null>(null);

function useStatusBanner(): StatusBannerState {
  const ctx = useContext(StatusBannerContext);
  if (!ctx) throw new Error('StatusBannerProvider is missing.');
  return ctx;
}

export function StatusBannerProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data: status } = useStatus();
  const impersonating = !!useIdentity().impersonation;
  const [expanded, setExpanded] = useState(false);
  const bannerId = useId();
  const bannerRef = useRef<HTMLDivElement | null>(null);
  const acknowledge = useMutation({
    mutationFn: () => api.post<Status>('/api/status/open'),
    onSuccess: (next) => queryClient.setQueryData(statusKey, next),
  });
  const { mutate } = acknowledge;

  const open = useCallback(() => {
    setExpanded(true);
    // Opening acknowledges the message for the signed-in user; a staff member working as someone else
    // has not made that user read it.
    if (status && !status.Acknowledged && !impersonating) mutate();
  }, [status, mutate, impersonating]);
  const toggle = useCallback(() => {
    if (expanded) setExpanded(false);
    else open();
  }, [expanded, open]);

  const value = useMemo(
    () => ({ status, expanded, open, toggle, bannerId, bannerRef }),
    [status, expanded, open, toggle, bannerId],
  );
  return <StatusBannerContext.Provider value={value}>{children}</StatusBannerContext.Provider>;
}

function hasMessage(status: Status | undefined): status is Status {
  return !!status && status.Message.trim() !== '';
}

/** Header indicator: a dot while the current status message has not been opened. */
export function StatusIndicator() {
  const { status, open, bannerRef } = useStatusBanner();
  if (!hasMessage(status)) return null;
  const unread = !status.Acknowledged;
  const label = unread ? `${LEVEL_LABEL[status.Level]} (unread)` : LEVEL_LABEL[status.Level];
  return (
    <Tooltip label={label}>
      <Indicator disabled={!unread} color="red" size={9} offset={6} processing={unread}>
        <ActionIcon
          variant="subtle"
          color={LEVEL_COLOR[status.Level]}
          size="lg"
          aria-label={label}
          onClick={() => {
            open();
            bannerRef.current?.scrollIntoView({ block: 'nearest' });
            bannerRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
          }}
        >
          <IconSpeakerphone aria-hidden />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}

/** The banners above a screen: the status message (opening acknowledges it) and current maintenance. */
export function StatusBanner() {
  const { status, expanded, toggle, bannerId, bannerRef } = useStatusBanner();
  const me = useIdentity();
  const { data: maintenance } = useMaintenance();
  const tz = displayTimeZone(me);
  const showMaintenance = maintenanceIsCurrent(maintenance);
  if (!hasMessage(status) && !showMaintenance) return null;

  return (
    <Box mb="md">
      {hasMessage(status) ? (
        <Paper
          ref={bannerRef}
          withBorder
          p="xs"
          px="sm"
          mb={showMaintenance ? 'xs' : 0}
          bg={`var(--mantine-color-${LEVEL_COLOR[status.Level]}-light)`}
          role="region"
          aria-label={LEVEL_LABEL[status.Level]}
          data-status-level={status.Level}
        >
          <Group gap="xs" wrap="nowrap" align="center">
            {status.Level === 'info' ? (
              <IconInfoCircle size={18} aria-hidden />
            ) : (
              <IconAlertTriangle size={18} aria-hidden />
            )}
            <Indicator
              disabled={status.Acknowledged}
              color="red"
              size={8}
              position="middle-start"
              offset={-2}
            >
              <Text size="sm" fw={600} pl={status.Acknowledged ? 0 : 'xs'} style={{ whiteSpace: 'nowrap' }}>
                {LEVEL_LABEL[status.Level]}
                {status.Acknowledged ? '' : ' (new)'}
              </Text>
            </Indicator>
            <Box style={{ flex: 1, minWidth: 0 }}>
              {!expanded ? (
                <Text size="sm" truncate="end" visibleFrom="sm">
                  {status.Message.split('\n')[0]}
                </Text>
              ) : null}
            </Box>
            <Button
              size="compact-sm"
              variant="subtle"
              color="dark"
              onClick={toggle}
              aria-expanded={expanded}
              aria-controls={bannerId}
              aria-label={expanded ? 'Hide the status message' : 'Show the status message'}
              style={{ flexShrink: 0 }}
            >
              {expanded ? 'Hide' : 'Show'}
            </Button>
          </Group>
          <Collapse expanded={expanded} id={bannerId}>
            <Text size="sm" mt="xs" style={{ whiteSpace: 'pre-wrap' }}>
              {status.Message}
            </Text>
            {status.UpdatedAt ? (
              <Text size="xs" c="dimmed" mt={4}>
                Updated {formatDateTime(status.UpdatedAt, tz)}
              </Text>
            ) : null}
          </Collapse>
        </Paper>
      ) : null}
      {showMaintenance && maintenance ? (
        <Paper
          withBorder
          p="xs"
          px="sm"
          bg="var(--mantine-color-orange-light)"
          role="region"
          aria-label="Scheduled maintenance"
        >
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconTool size={18} aria-hidden style={{ marginTop: 2, flexShrink: 0 }} />
            <div>
              <Text size="sm" fw={600}>
                Scheduled maintenance
                {maintenance.StartsAt ? `: ${formatDateTime(maintenance.StartsAt, tz)}` : ''}
                {maintenance.EndsAt ? ` to ${formatDateTime(maintenance.EndsAt, tz)}` : ''}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {maintenance.Message}
              </Text>
            </div>
          </Group>
        </Paper>
      ) : null}
    </Box>
  );
}

export { maintenanceIsCurrent };
