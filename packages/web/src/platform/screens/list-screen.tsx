import {
  criteriaTagLabel,
  displayTimeZone,
  FILTER_ADVANCED,
  FILTER_NONE,
  type FilterCriterion,
  fitFilterTags,
  LIST_SEARCH_DEBOUNCE_MS,
  LIST_SEARCH_EXACT_UP_TO,
  type ListResponse,
  listTotalLabel,
  listVariantsOf,
  type Permission,
  pageCount,
  RECORD_VERSION_FIELD,
  type ResourceDeclaration,
  reachableRows,
  recordNameOf,
  resourceStateName,
  type SortSetting,
  screenNameOf,
  skipForPage,
} from '@guildhall/shared';
import {
  ActionIcon,
  Button,
  Group,
  Pill,
  Popover,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue, useElementSize, useMediaQuery } from '@mantine/hooks';
import {
  IconAdjustmentsHorizontal,
  IconDownload,
  IconFilter,
  IconPlus,
  IconSearch,
  IconWand,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorBlock } from '../error-block.tsx';
import { can, useIdentity } from '../identity.ts';
import { listActionsOf, useModules } from '../modules/modules-context.tsx';
import { notifyError, notifyInfo } from '../notify.ts';
import { LoadingBlock, PageHeader } from '../page.tsx';
import { usePublishScreenHandle } from '../route-handle.ts';
import { confirmDialog } from './dialogs.tsx';
import { UnknownScreen } from './edit-screen.tsx';
import { followPendingDownload } from './export-download.tsx';
import type { RowCommand } from './list-columns.ts';
import { type ColumnView, columnSettings, mergeColumns, withActionsColumn } from './list-columns.ts';
import { type ListSlots, ListSlotsProvider } from './list-slots.tsx';
import { type ListState, loadListState, saveListState, saveNavigation } from './list-state.ts';
import { ListTable } from './list-table.tsx';
import { listPath, recordPath, resourceByRoute } from './resources.ts';
import { defaultListVariant, type ListVariant, screenOptionsOf } from './screen-options.ts';
import {
  fetchList,
  type ListParams,
  loadTableSettings,
  removeRecord,
  saveTableSettings,
  startExport,
} from './screens-api.ts';
import { runServerCall } from './server-call.ts';

const TableSettingsDialog = lazy(() => import('./table-settings-dialog.tsx'));
const AdvancedFilterDialog = lazy(() => import('./advanced-filter-dialog.tsx'));
const CalendarView = lazy(() => import('./list-calendar.tsx'));
const InfiniteList = lazy(() => import('./list-infinite.tsx'));
const CardsView = lazy(() => import('./list-cards.tsx'));
const PlainList = lazy(() => import('./list-plain.tsx'));
const WizardDialog = lazy(() => import('./wizard-dialog.tsx'));

const VIEW_PARAM: Record<string, ListVariant> = {
  table: 'DeluxeListView',
  list: 'ListView',
  cards: 'DeluxeListViewWithCards',
  calendar: 'DeluxeListViewWithCalendar',
  infinite: 'InfiniteScroll',
};
const PARAM_OF: Record<ListVariant, string> = {
  ListView: 'list',
  DeluxeListView: 'table',
  DeluxeListViewWithCards: 'cards',
  DeluxeListViewWithCalendar: 'calendar',
  InfiniteScroll: 'infinite',
};

const VARIANT_LABEL: Record<ListVariant, string> = {
  ListView: 'List',
  DeluxeListView: 'Table',
  DeluxeListViewWithCards: 'Cards',
  DeluxeListViewWithCalendar: 'Calendar',
  InfiniteScroll: 'Scroll',
};

/** `/micronet/list/:feature/:subfeature` */
export function ListScreenRoute() {
  const { feature = '', subfeature = '' } = useParams();
  const resource = resourceByRoute(feature, subfeature);
  usePublishScreenHandle(resource ? resourceStateName(resource, 'List') : '', resource?.title ?? '');
  if (!resource || resource.singleRecord) return <UnknownScreen />;
  return <ListScreen key={resource.name} resource={resource} />;
}

const INITIAL: ListState = { page: 1, search: '', filterId: FILTER_NONE, criteria: [], sort: null };

/**
 * The generic list. A feature page embeds it with `slots` (toolbar, record actions, extra tabs, cell renderers,
 * where a record opens) instead of copying it; the slots are typed by the resource's field names.
 */
export function ListScreen<F extends string = string>(props: {
  resource: ResourceDeclaration<F>;
  slots?: ListSlots<F>;
}) {
  const resource = props.resource as unknown as ResourceDeclaration;
  const slots = props.slots as ListSlots | undefined;
  const me = useIdentity();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const phone = useMediaQuery('(max-width: 600px)');
  const options = screenOptionsOf(resource);
  const screenName = screenNameOf(resource);
  const pageSize = options.pageSize ?? me.tenant.settings.listPageSize;
  const canWrite = resource.permissions.write !== null && can(me, resource.permissions.write);
  const modules = useModules();
  const listActions = listActionsOf(modules, resource.name).filter((a) => can(me, a.permission));

  const offered = listVariantsOf(resource);
  const asked = VIEW_PARAM[searchParams.get('view') ?? ''];
  // A variant the resource does not offer (a calendar of records without a date) opens the default instead.
  const requested = asked && offered.includes(asked) ? asked : undefined;
  const variant: ListVariant = requested ?? defaultListVariant(options, phone === true);
  const setVariant = (v: ListVariant) =>
    setSearchParams(
      (p) => {
        p.set('view', PARAM_OF[v]);
        return p;
      },
      { replace: true },
    );

  const [state, setState] = useState<ListState>(() => loadListState(resource) ?? INITIAL);
  const [debouncedSearch] = useDebouncedValue(state.search, LIST_SEARCH_DEBOUNCE_MS);
  const update = useCallback((patch: Partial<ListState>) => setState((s) => ({ ...s, ...patch })), []);
  // A new page starts at the top of the list, not where the pager was (at the bottom of the last one).
  const listTop = useRef<HTMLDivElement>(null);
  const goToPage = useCallback(
    (page: number) => {
      update({ page });
      listTop.current?.scrollIntoView({ block: 'start' });
    },
    [update],
  );
  useEffect(() => saveListState(resource, state), [resource, state]);

  const settings = useQuery({
    queryKey: ['tableSettings', screenName],
    queryFn: () => loadTableSettings(screenName),
    staleTime: Number.POSITIVE_INFINITY,
  });
  // The saved sort applies once loaded; an invalid one was cleared by the server: reload without it.
  const [sortReady, setSortReady] = useState(false);
  useEffect(() => {
    if (!settings.data || sortReady) return;
    if (settings.data.InvalidSort) {
      update({ sort: null, page: 1 });
      notifyInfo('The saved sort no longer applies, so the list is in its default order.', 'Sort cleared');
    } else if (settings.data.Settings?.Sort) update({ sort: settings.data.Settings.Sort });
    setSortReady(true);
  }, [settings.data, sortReady, update]);

  const [columnsOverride, setColumnsOverride] = useState<ColumnView[] | null>(null);
  // Columns of fields the association added (custom fields, decision 0112) come only when asked for: the
  // declared columns and the added ones the table settings show.
  const addedShown = (
    columnsOverride
      ? columnsOverride.filter((c) => c.visible).map((c) => c.field)
      : (settings.data?.Settings?.Columns ?? []).filter((c) => c.Visible).map((c) => c.Name)
  ).filter((f) => !(f in resource.fields) && !f.startsWith('$'));
  const params: ListParams = {
    skip: skipForPage(state.page, pageSize),
    top: pageSize,
    sort: state.sort,
    search: debouncedSearch,
    filterId: state.filterId,
    criteria: state.criteria,
    ...(addedShown.length > 0 ? { columns: [...resource.columns.map((c) => c.field), ...addedShown] } : {}),
  };
  const list = useQuery({
    queryKey: ['list', resource.name, params],
    queryFn: ({ signal }) => fetchList(resource, params, signal),
    enabled: sortReady || settings.isError,
    placeholderData: keepPreviousData,
  });
  const data = list.data;

  // Previous and next from a record walk the rows this list shows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the loaded rows decide
  useEffect(() => {
    if (!data) return;
    const { skip: _s, top: _t, ...rest } = params;
    saveNavigation(resource, {
      params: rest,
      pageSize,
      offset: params.skip,
      ids: data.Results.map((r) => String(r[resource.key])),
      total: data.TotalRecordAvailable,
    });
  }, [data]);

  const columns = useMemo(() => {
    const merged =
      columnsOverride ?? (data ? mergeColumns(data.ListViewItems, settings.data?.Settings ?? null) : []);
    // A row action that needs a permission the user lacks (a server call's own) is not offered.
    const allowed = merged.map((c) =>
      c.actions.some((a) => a.permission)
        ? { ...c, actions: c.actions.filter((a) => !a.permission || can(me, a.permission as Permission)) }
        : c,
    );
    // An embedding feature's record actions draw on any resource, with or without declared row actions.
    return withActionsColumn(allowed, (slots?.recordActions?.length ?? 0) > 0);
  }, [columnsOverride, data, settings.data, me, slots]);

  const persist = async (next: { sort?: SortSetting | null; columns?: ColumnView[] }) => {
    const cols = next.columns ?? columns;
    const sort = next.sort === undefined ? state.sort : next.sort;
    try {
      const answer = await saveTableSettings({
        ScreenName: screenName,
        Sort: sort,
        Columns: columnSettings(cols),
      });
      queryClient.setQueryData(['tableSettings', screenName], {
        Settings: answer.Settings,
        InvalidSort: false,
      });
      if (answer.InvalidSort) update({ sort: null, page: 1 });
    } catch (error) {
      notifyError(error, 'Sorry');
    }
  };

  const onSort = (field: string) => {
    const current = state.sort ?? (data ? data.ModelItems.DefaultSort : null);
    const direction = current?.columnName === field && current.direction === 'asc' ? 'desc' : 'asc';
    const sort = { columnName: field, direction } as const;
    update({ sort, page: 1 });
    void persist({ sort });
  };

  const [tableSettingsOpen, setTableSettingsOpen] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [wizardOpen, setWizardOpen] = useState(false);
  const [exporting, setExporting] = useState(false);

  const onExport = async () => {
    setExporting(true);
    try {
      followPendingDownload(await startExport(resource, params));
    } catch (error) {
      notifyError(error);
    } finally {
      setExporting(false);
    }
  };

  const onCommand: RowCommand = async (action, row) => {
    const id = String(row[resource.key]);
    if (action.kind === 'edit') return navigate(slots?.recordPath?.(id) ?? recordPath(resource, id));
    if (action.kind === 'delete' || action.kind === 'void') {
      const name = recordNameOf(resource, row, displayTimeZone(me));
      const ok = await confirmDialog({
        title: `${action.title} ${name}?`,
        message:
          action.kind === 'delete'
            ? 'The record is removed from the list.'
            : 'The record stays on file, marked void.',
        okLabel: action.title,
        danger: true,
      });
      if (!ok) return;
      try {
        const seen = row[RECORD_VERSION_FIELD];
        await removeRecord(resource, id, action.kind, typeof seen === 'number' ? seen : undefined);
        notifyInfo(
          `${name} was ${action.kind === 'delete' ? 'deleted' : 'voided'}.`,
          action.kind === 'delete' ? 'Deleted' : 'Voided',
        );
        void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
      } catch (error) {
        notifyError(error);
      }
      return;
    }
    if (action.kind === 'serverCall' && action.call) {
      if (await runServerCall(action.title, action.call, row))
        void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
      return;
    }
    notifyInfo(`${action.title} is not available here yet.`);
  };

  const filters = data?.ModelItems.Filters ?? [{ Id: FILTER_NONE, Name: 'None' }];
  const filterData = [
    ...filters.map((f) => ({ value: String(f.Id), label: f.Name })),
    { value: String(FILTER_ADVANCED), label: 'Advanced' },
  ];

  const removeTag = (propertyName: string | null) => {
    if (state.filterId === FILTER_ADVANCED) {
      const criteria = state.criteria.filter((c) => c.PropertyName !== propertyName);
      update({ criteria, filterId: criteria.length ? FILTER_ADVANCED : FILTER_NONE, page: 1 });
    } else update({ filterId: FILTER_NONE, criteria: [], page: 1 });
  };

  const total = data?.TotalRecordAvailable ?? 0;
  // An estimated search total (decision 0101): the pages reach the matches the server counts, not the estimate.
  const pages = pageCount(reachableRows(total, data?.TotalIsEstimate, LIST_SEARCH_EXACT_UP_TO), pageSize);

  const onSlotChanged = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ['list', resource.name] }),
    [queryClient, resource.name],
  );
  const activeSlots = useMemo(
    () => (slots ? { slots, keyField: resource.key, onChanged: onSlotChanged } : null),
    [slots, resource.key, onSlotChanged],
  );

  let body: ReactNode;
  if (list.error && !data) body = <ErrorBlock error={list.error} onRetry={() => void list.refetch()} />;
  else if (!data) body = <LoadingBlock />;
  else if (variant === 'DeluxeListViewWithCalendar')
    body = <CalendarView resource={resource} baseParams={params} columns={columns} />;
  else if (variant === 'InfiniteScroll')
    body = (
      <InfiniteList
        resource={resource}
        baseParams={params}
        columns={columns}
        pageSize={pageSize}
        onCommand={onCommand}
      />
    );
  else if (variant === 'ListView')
    body = (
      <PlainList
        resource={resource}
        rows={data.Results}
        columns={columns}
        onCommand={onCommand}
        page={state.page}
        pages={pages}
        onPage={goToPage}
      />
    );
  else if (variant === 'DeluxeListViewWithCards')
    body = (
      <CardsView
        resource={resource}
        rows={data.Results}
        columns={columns}
        onCommand={onCommand}
        page={state.page}
        pages={pages}
        total={total}
        pageSize={pageSize}
        onPage={goToPage}
      />
    );
  else
    body = (
      <ListTable
        resource={resource}
        data={data}
        columns={columns}
        sort={state.sort ?? data.ModelItems.DefaultSort}
        onSort={onSort}
        onCommand={onCommand}
        page={state.page}
        pages={pages}
        pageSize={pageSize}
        onPage={goToPage}
        loading={list.isFetching}
        preview={variant === 'DeluxeListView'}
        canWrite={canWrite}
      />
    );

  const listBody = (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={`Search ${resource.title.toLowerCase()}`}
          type="search"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={state.search}
          onChange={(e) => update({ search: e.currentTarget.value, page: 1 })}
          style={{ flex: '1 1 220px', maxWidth: 360 }}
        />
        <Select
          label="Filter"
          data={filterData}
          value={String(state.filterId)}
          allowDeselect={false}
          w={160}
          onChange={(v) => {
            const id = Number(v ?? FILTER_NONE);
            if (id === FILTER_ADVANCED) setAdvancedOpen(true);
            else update({ filterId: id, criteria: [], page: 1 });
          }}
        />
        <Button
          variant="default"
          leftSection={<IconFilter size={16} aria-hidden />}
          onClick={() => setAdvancedOpen(true)}
        >
          Advanced filter
        </Button>
        <SegmentedControl
          aria-label="View"
          value={variant}
          onChange={(v) => setVariant(v as ListVariant)}
          data={offered.map((v) => ({ value: v, label: VARIANT_LABEL[v] }))}
        />
      </Group>
      <FilterTags
        tags={data?.CriteriaItems ?? []}
        onRemove={removeTag}
        onClear={() => update({ filterId: FILTER_NONE, criteria: [], page: 1 })}
      />
      <Text size="sm" c="dimmed" aria-live="polite" ref={listTop} style={{ scrollMarginTop: 72 }}>
        {data ? listTotalLabel(total, data.TotalIsEstimate, LIST_SEARCH_EXACT_UP_TO) : ''}
      </Text>
      {body}
    </Stack>
  );

  return (
    <>
      <PageHeader
        title={resource.title}
        description={slots?.description}
        actions={
          <>
            {slots?.toolbar}
            {canWrite && resource.capabilities.create ? (
              <>
                <Button
                  component={Link}
                  to={`${listPath(resource)}/new`}
                  leftSection={<IconPlus size={16} aria-hidden />}
                >
                  Add
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconWand size={16} aria-hidden />}
                  onClick={() => setWizardOpen(true)}
                >
                  Add with wizard
                </Button>
              </>
            ) : null}
            {listActions.length > 0 ? (
              <Suspense fallback={null}>
                {listActions.map(({ key, Action }) => (
                  <Action
                    key={key}
                    resource={resource}
                    onChanged={() =>
                      void queryClient.invalidateQueries({ queryKey: ['list', resource.name] })
                    }
                  />
                ))}
              </Suspense>
            ) : null}
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={exporting}
              onClick={() => void onExport()}
            >
              Export
            </Button>
            <Tooltip label="Table settings">
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="Table settings"
                onClick={() => setTableSettingsOpen(true)}
                disabled={!data}
              >
                <IconAdjustmentsHorizontal size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </>
        }
      />
      <ListSlotsProvider value={activeSlots}>
        {slots?.tabs?.length ? (
          <Tabs defaultValue="list" keepMounted={false}>
            <Tabs.List mb="sm">
              <Tabs.Tab value="list">{resource.title}</Tabs.Tab>
              {slots.tabs.map((t) => (
                <Tabs.Tab key={t.key} value={t.key} rightSection={t.badge}>
                  {t.title}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="list">{listBody}</Tabs.Panel>
            {slots.tabs.map((t) => (
              <Tabs.Panel key={t.key} value={t.key}>
                {t.panel}
              </Tabs.Panel>
            ))}
          </Tabs>
        ) : (
          listBody
        )}
      </ListSlotsProvider>
      <Suspense fallback={null}>
        {tableSettingsOpen && data ? (
          <TableSettingsDialog
            columns={columns}
            onClose={() => setTableSettingsOpen(false)}
            onSave={async (next) => {
              setColumnsOverride(next);
              setTableSettingsOpen(false);
              await persist({ columns: next });
            }}
          />
        ) : null}
        {advancedOpen && data ? (
          <AdvancedFilterDialog
            resource={resource}
            fields={data.ModelItems.FilterableFields}
            columns={data.ListViewItems}
            initial={state.filterId === FILTER_ADVANCED ? state.criteria : []}
            onClose={() => setAdvancedOpen(false)}
            onApply={(criteria: FilterCriterion[]) => {
              setAdvancedOpen(false);
              update({ criteria, filterId: criteria.length ? FILTER_ADVANCED : FILTER_NONE, page: 1 });
            }}
          />
        ) : null}
        {wizardOpen ? (
          <WizardDialog
            resource={resource}
            onClose={(saved: boolean) => {
              setWizardOpen(false);
              if (saved) void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
            }}
          />
        ) : null}
      </Suspense>
    </>
  );
}

/** Filter tags, with a "{n} more" tag for those that do not fit (7.5 px per character plus 40 px each). */
function FilterTags({
  tags,
  onRemove,
  onClear,
}: {
  tags: ListResponse['CriteriaItems'];
  onRemove: (propertyName: string | null) => void;
  onClear: () => void;
}) {
  const { ref, width } = useElementSize();
  const labels = tags.map(criteriaTagLabel);
  const fit = fitFilterTags(labels, Math.max(0, width - 110));
  const hidden = tags.slice(fit.visibleCount);
  return (
    <Group
      ref={ref}
      gap={6}
      wrap="nowrap"
      aria-label="Filters"
      role="group"
      style={{ minHeight: tags.length ? 28 : 0, overflow: 'hidden' }}
    >
      {tags.slice(0, fit.visibleCount).map((tag, i) => (
        <Pill
          key={`${tag.PropertyName}-${labels[i]}`}
          withRemoveButton
          onRemove={() => onRemove(tag.PropertyName)}
          removeButtonProps={{ 'aria-label': `Remove filter ${labels[i]}` }}
          size="md"
          data-filter-tag
        >
          {labels[i]}
        </Pill>
      ))}
      {fit.overflowLabel ? (
        <Popover position="bottom-start" withArrow shadow="md">
          <Popover.Target>
            <Button size="compact-sm" variant="light" radius="xl" data-overflow-tag style={{ flexShrink: 0 }}>
              {fit.overflowLabel}
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <Stack gap={6}>
              {hidden.map((tag) => (
                <Pill
                  key={`${tag.PropertyName}-${criteriaTagLabel(tag)}`}
                  withRemoveButton
                  onRemove={() => onRemove(tag.PropertyName)}
                  removeButtonProps={{ 'aria-label': `Remove filter ${criteriaTagLabel(tag)}` }}
                >
                  {criteriaTagLabel(tag)}
                </Pill>
              ))}
            </Stack>
          </Popover.Dropdown>
        </Popover>
      ) : null}
      {tags.length > 0 ? (
        <Button variant="subtle" size="compact-sm" onClick={onClear} style={{ flexShrink: 0 }}>
          Clear filters
        </Button>
      ) : null}
    </Group>
  );
}
