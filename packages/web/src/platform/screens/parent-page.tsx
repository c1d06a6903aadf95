import {
  type ChildListDeclaration,
  displayTimeZone,
  FILTER_ADVANCED,
  type Model,
  type Permission,
  pageCount,
  type ResourceDeclaration,
  screenNameOf,
  skipForPage,
} from '@guildhall/shared';
import { ActionIcon, Alert, Anchor, Badge, Button, Group, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorBlock } from '../error-block.tsx';
import { can, useIdentity } from '../identity.ts';
import { claimedRecordSlots, recordSlotsOf, useModules } from '../modules/modules-context.tsx';
import { notifyError } from '../notify.ts';
import { LoadingBlock, PageHeader } from '../page.tsx';
import { rowLabel } from './list-cell.tsx';
import { type ColumnView, columnSettings, meetsCondition, mergeColumns } from './list-columns.ts';
import PlainList from './list-plain.tsx';
import { PreviewCard } from './preview-box.tsx';
import { RecordActionBar } from './record-action-bar.tsx';
import { type RecordSlots, RecordSlotsProvider } from './record-slots.tsx';
import { listPath, recordPath, resourceByName } from './resources.ts';
import { detailSections, screenOptionsOf } from './screen-options.ts';
import { fetchList, fetchRecord, loadTableSettings, saveTableSettings } from './screens-api.ts';
import { runServerCall } from './server-call.ts';

const TableSettingsDialog = lazy(() => import('./table-settings-dialog.tsx'));

const DETAILS_TAB = 'details';

function plannedTabKey(title: string): string {
  return `planned-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

/**
 * MainEntityParentPage: the record's header (its PreviewBox), then tabs: the record's details and one list per
 * declared child resource, filtered by the child's `parentField` equal to this record's key. The tab is kept in
 * the address (`?tab=`).
 *
 * The record's slots are the ones given, else the ones the resource's module claims (`WebModule.recordSlots`), so
 * that every address of the record draws the feature's toolbar, actions, tabs and field renderers (decision 0188).
 */
export default function ParentPage<F extends string = string>({
  resource: typedResource,
  recordId,
  slots: typedSlots,
}: {
  resource: ResourceDeclaration<F>;
  recordId: string;
  /** Slots of this page only, instead of the ones the resource's module claims. */
  slots?: RecordSlots<F>;
}) {
  const resource = typedResource as unknown as ResourceDeclaration;
  const me = useIdentity();
  const modules = useModules();
  const claim = typedSlots ? null : claimedRecordSlots(modules, resource.name);
  const claimed = useQuery({
    queryKey: ['recordSlots', resource.name],
    queryFn: () => (claim ? claim.load() : Promise.resolve(null)),
    enabled: claim !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const slots = useMemo(
    () => (typedSlots as RecordSlots | undefined) ?? claimed.data?.(me),
    [typedSlots, claimed.data, me],
  );
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const record = useQuery({
    queryKey: ['record', resource.name, recordId],
    queryFn: () => fetchRecord(resource, recordId),
  });
  const children = (screenOptionsOf(resource).children ?? []).flatMap((child) => {
    const r = resourceByName(child.resource);
    return r && can(me, r.permissions.read) ? [{ child, resource: r }] : [];
  });
  const planned = screenOptionsOf(resource).plannedChildren ?? [];
  const { actions: recordActions, tabs: featureTabs, asides, childPanels } = recordSlotsOf(modules, resource);
  const tab = params.get('tab') ?? DETAILS_TAB;
  const canEdit =
    resource.permissions.write !== null &&
    can(me, resource.permissions.write) &&
    resource.capabilities.update;
  // A resource the generic layer never writes (an invoice) is changed only by its feature's own actions, which
  // call routes with permissions of their own: they show to whoever may read the record.
  const showActions = canEdit || resource.permissions.write === null;
  const onChanged = useCallback(() => {
    void record.refetch();
    void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
  }, [record.refetch, queryClient, resource.name]);
  const fieldSlots = useMemo(
    () => (record.data ? { fields: slots?.fields ?? {}, row: record.data, onChanged } : null),
    [slots?.fields, record.data, onChanged],
  );

  if (record.error)
    return (
      <>
        <PageHeader title={resource.title} />
        <ErrorBlock error={record.error} onRetry={() => void record.refetch()} />
      </>
    );
  if (claimed.error)
    return (
      <>
        <PageHeader title={resource.title} />
        <ErrorBlock error={claimed.error} onRetry={() => void claimed.refetch()} />
      </>
    );
  if (!record.data || (claim && !claimed.data)) return <LoadingBlock />;
  const label = rowLabel(resource, record.data, displayTimeZone(me));
  const context = { row: record.data, id: recordId, label, onChanged };
  // The resource's declared server calls (Send password reset) are record actions here as in its list's rows.
  const declared = resource.rowActions
    .filter(
      (a) =>
        a.kind === 'serverCall' &&
        a.call &&
        (!a.permission || can(me, a.permission as Permission)) &&
        meetsCondition(record.data, a.showCondition),
    )
    .map((a) => ({
      key: a.key,
      title: a.title,
      onSelect: async () => {
        if (a.call && (await runServerCall(a.title, a.call, record.data))) onChanged();
      },
    }));
  const Toolbar = slots?.toolbar;
  const slotTabs = slots?.tabs ?? [];
  return (
    <RecordSlotsProvider value={fieldSlots}>
      <PageHeader
        title={label}
        description={slots?.description ?? resource.title.replace(/s$/, '')}
        // Back to the list is a link above the title, as on the record's form: the header's row keeps its room for
        // the record's actions.
        above={
          <Anchor component={Link} to={slots?.listPath ?? listPath(resource)} size="sm">
            <span aria-hidden>← </span>Back to {resource.title.toLowerCase()}
          </Anchor>
        }
        actions={
          <>
            {Toolbar ? <Toolbar {...context} /> : null}
            <RecordActionBar
              declared={declared}
              actions={slots?.recordActions}
              context={context}
              size="header"
            />
            {showActions && recordActions.length > 0 ? (
              <Suspense fallback={null}>
                {recordActions.map(({ key, Action }) => (
                  <Action key={key} resource={resource} recordId={recordId} record={record.data} />
                ))}
              </Suspense>
            ) : null}
            {canEdit ? (
              <Button
                component={Link}
                to={`${recordPath(resource, recordId)}?screen=standard`}
                variant="default"
              >
                Edit
              </Button>
            ) : null}
          </>
        }
      />
      <Stack gap="md">
        {asides.length > 0 ? (
          <Group align="flex-start" wrap="wrap" gap="md">
            <Suspense fallback={null}>
              {asides.map(({ key, Aside }) => (
                <Aside key={key} resource={resource} recordId={recordId} record={record.data} />
              ))}
            </Suspense>
            <div style={{ flex: 1, minWidth: 260 }}>
              <PreviewCard resource={resource} record={record.data} />
            </div>
          </Group>
        ) : (
          <PreviewCard resource={resource} record={record.data} />
        )}
        <Tabs
          value={tab}
          onChange={(v) =>
            setParams(
              (p) => {
                p.set('tab', v ?? DETAILS_TAB);
                return p;
              },
              { replace: true },
            )
          }
          keepMounted={false}
        >
          <Tabs.List>
            <Tabs.Tab value={DETAILS_TAB}>Details</Tabs.Tab>
            {children.map(({ child }) => (
              <Tabs.Tab key={child.resource} value={child.resource}>
                {child.title}
              </Tabs.Tab>
            ))}
            {featureTabs.map((t) => (
              <Tabs.Tab key={t.key} value={t.key}>
                {t.title}
              </Tabs.Tab>
            ))}
            {slotTabs.map((t) => (
              <Tabs.Tab key={t.key} value={t.key}>
                {t.title}
              </Tabs.Tab>
            ))}
            {planned.map((p) => (
              <Tabs.Tab key={p.title} value={plannedTabKey(p.title)} c="dimmed">
                {p.title}{' '}
                <Badge size="xs" variant="light" color="gray" ml={4}>
                  Coming
                </Badge>
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value={DETAILS_TAB} pt="md">
            <Details resource={resource} record={record.data} />
          </Tabs.Panel>
          {children.map(({ child, resource: childResource }) => {
            const Own = childPanels[child.resource];
            return (
              <Tabs.Panel key={child.resource} value={child.resource} pt="md">
                {Own ? (
                  <Suspense fallback={<LoadingBlock />}>
                    <Own resource={resource} recordId={recordId} record={record.data} />
                  </Suspense>
                ) : (
                  <ChildList
                    child={child}
                    resource={childResource}
                    parent={resource}
                    parentKey={record.data[resource.key]}
                    pageSize={me.tenant.settings.listPageSize}
                  />
                )}
              </Tabs.Panel>
            );
          })}
          {featureTabs.map(({ key, Panel }) => (
            <Tabs.Panel key={key} value={key} pt="md">
              <Suspense fallback={<LoadingBlock />}>
                <Panel resource={resource} recordId={recordId} record={record.data} />
              </Suspense>
            </Tabs.Panel>
          ))}
          {slotTabs.map(({ key, Panel }) => (
            <Tabs.Panel key={key} value={key} pt="md">
              <Panel {...context} />
            </Tabs.Panel>
          ))}
          {planned.map((p) => (
            <Tabs.Panel key={p.title} value={plannedTabKey(p.title)} pt="md">
              <Alert color="gray" title={`${p.title}: coming`}>
                {p.note}
              </Alert>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </RecordSlotsProvider>
  );
}

/**
 * The record's form fields, read-only, section by section, without the ones the header card above already shows
 * (decision 0188): a section whose every field is in the header is not drawn.
 */
function Details({ resource, record }: { resource: ResourceDeclaration; record: Model }) {
  const sections = detailSections(resource);
  if (sections.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Every field of this record is in the card above.
      </Text>
    );
  return (
    <Stack gap="md">
      {sections.map((section) => (
        <PreviewCard
          key={section.title}
          resource={resource}
          record={record}
          title={section.title}
          fields={section.fields}
          headingLevel={3}
        />
      ))}
    </Stack>
  );
}

/**
 * A child tab's own table settings (columns shown, their order and mode), kept per child list of a parent
 * (`<child screen>@<parent screen>`): one event's attendee list offers that event's registration questions
 * (decision 0112), which the attendee list of another event or of every event does not.
 */
function childScreenName(child: ResourceDeclaration, parent: ResourceDeclaration): string {
  return `${screenNameOf(child)}@${screenNameOf(parent)}`;
}

function ChildList({
  child,
  resource,
  parent,
  parentKey,
  pageSize,
}: {
  child: ChildListDeclaration;
  resource: ResourceDeclaration;
  parent: ResourceDeclaration;
  parentKey: unknown;
  pageSize: number;
}) {
  const me = useIdentity();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const canAdd =
    resource.capabilities.create &&
    resource.permissions.write !== null &&
    can(me, resource.permissions.write);
  const screenName = childScreenName(resource, parent);
  const settings = useQuery({
    queryKey: ['tableSettings', screenName],
    queryFn: () => loadTableSettings(screenName),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [columnsOverride, setColumnsOverride] = useState<ColumnView[] | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Columns of fields the association added (custom fields) come only when asked for, as on the list screen.
  const addedShown = (
    columnsOverride
      ? columnsOverride.filter((c) => c.visible).map((c) => c.field)
      : (settings.data?.Settings?.Columns ?? []).filter((c) => c.Visible).map((c) => c.Name)
  ).filter((f) => !(f in resource.fields) && !f.startsWith('$'));
  const params = {
    skip: skipForPage(page, pageSize),
    top: pageSize,
    sort: null,
    search: '',
    filterId: FILTER_ADVANCED,
    criteria: [{ PropertyName: child.parentField, Operator: 'eq' as const, Value: parentKey }],
    ...(addedShown.length > 0 ? { columns: [...resource.columns.map((c) => c.field), ...addedShown] } : {}),
  };
  const list = useQuery({
    queryKey: ['list', resource.name, params],
    queryFn: ({ signal }) => fetchList(resource, params, signal),
    enabled: !settings.isPending,
    placeholderData: keepPreviousData,
  });
  if (list.error) return <ErrorBlock error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <LoadingBlock />;
  const total = list.data.TotalRecordAvailable;
  const columns = columnsOverride ?? mergeColumns(list.data.ListViewItems, settings.data?.Settings ?? null);
  const save = async (next: ColumnView[]) => {
    setColumnsOverride(next);
    setSettingsOpen(false);
    try {
      const answer = await saveTableSettings({
        ScreenName: screenName,
        Sort: null,
        Columns: columnSettings(next),
      });
      queryClient.setQueryData(['tableSettings', screenName], {
        Settings: answer.Settings,
        InvalidSort: false,
      });
    } catch (error) {
      notifyError(error, 'Sorry');
    }
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Badge variant="light" aria-live="polite">
          {total} {total === 1 ? 'record' : 'records'}
        </Badge>
        <Group gap="sm">
          <Anchor component={Link} to={listPath(resource)} size="sm">
            All {resource.title.toLowerCase()}
          </Anchor>
          {canAdd ? (
            <Button
              component={Link}
              size="compact-sm"
              to={`${listPath(resource)}/new?${new URLSearchParams({ [child.parentField]: String(parentKey) })}`}
            >
              Add to {child.title.toLowerCase()}
            </Button>
          ) : null}
          <Tooltip label="Table settings">
            <ActionIcon variant="default" aria-label="Table settings" onClick={() => setSettingsOpen(true)}>
              <IconAdjustmentsHorizontal size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <PlainList
        resource={resource}
        rows={list.data.Results}
        columns={columns}
        page={page}
        pages={pageCount(total, pageSize)}
        onPage={setPage}
        empty={`No ${child.title.toLowerCase()} yet.`}
      />
      {settingsOpen ? (
        <Suspense fallback={null}>
          <TableSettingsDialog columns={columns} onClose={() => setSettingsOpen(false)} onSave={save} />
        </Suspense>
      ) : null}
    </Stack>
  );
}
