import type { SaveResponse } from '@guildhall/shared';
import {
  adjacentRecordIndex,
  displayTimeZone,
  type Model,
  normalizeModel,
  RECORD_VERSION_FIELD,
  type ResourceDeclaration,
  recordNameOf,
  resourceStateName,
  SAVE_CHANGED_FIELDS_QUESTION,
  STICKY_FIELD_DELAY_MS,
} from '@guildhall/shared';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconDots } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, isApiError } from '../api-client.ts';
import { ErrorBlock, type ErrorInfo, toErrorInfo } from '../error-block.tsx';
import { can, meQueryKey, useIdentity } from '../identity.ts';
import { notifyInfo } from '../notify.ts';
import { LoadingBlock, PageHeader } from '../page.tsx';
import { usePublishScreenHandle } from '../route-handle.ts';
import { UnsavedChangesPrompt } from '../unsaved-changes.tsx';
import { ConflictPanel } from './conflict-panel.tsx';
import { confirmDialog, useAutoHide } from './dialogs.tsx';
import type { EditSlotProps, EditSlots } from './edit-slots.tsx';
import { useFieldContext } from './field-context.ts';
import { extendNavigation, loadNavigation, positionOf, type RecordNavigation } from './list-state.ts';
import { openPrintPreview } from './print-preview.tsx';
import { emptyModel, isFieldChanged, prefillFrom, RecordForm } from './record-form.tsx';
import { apiBase, listPath, recordPath, resourceByRoute } from './resources.ts';
import { afterSave, saveWithBusinessChecks } from './save-flow.ts';
import { NO_SCROLL_ON_ERROR, screenOptionsOf } from './screen-options.ts';
import {
  ConcurrencyConflictError,
  fetchRecord,
  recalculate,
  removeRecord,
  requestWithHeaders,
} from './screens-api.ts';

const ParentPage = lazy(() => import('./parent-page.tsx'));

/** `/micronet/list/:feature/:subfeature/new` */
export function NewRecordRoute() {
  return <EditScreenRoute creating />;
}

/** `/micronet/list/:feature/:subfeature/:id` and `…/new`: the generic edit screen. */
export function EditScreenRoute({ creating = false }: { creating?: boolean }) {
  const { feature = '', subfeature = '', id } = useParams();
  const [searchParams] = useSearchParams();
  const resource = resourceByRoute(feature, subfeature);
  usePublishScreenHandle(
    resource ? resourceStateName(resource, creating ? 'New' : 'Record') : '',
    resource ? resource.title.replace(/s$/, '') : '',
  );
  if (!resource) return <UnknownScreen />;
  const recordId = creating || resource.singleRecord ? null : (id ?? null);
  // A MainEntityParentPage record opens on its header and child tabs; `?screen=standard` is its edit form.
  if (
    recordId !== null &&
    screenOptionsOf(resource).recordType === 'MainEntityParentPage' &&
    searchParams.get('screen') !== 'standard'
  )
    return <ParentPage key={`${resource.name}:${recordId}`} resource={resource} recordId={recordId} />;
  return (
    <EditScreen
      key={`${resource.name}:${recordId ?? 'new'}`}
      resource={resource}
      recordId={recordId}
      prefill={recordId === null ? prefillFrom(resource, searchParams) : {}}
    />
  );
}

export function UnknownScreen() {
  return (
    <>
      <PageHeader title="Screen not found" />
      <ErrorBlock message="There is no screen at this address." isKnown />
    </>
  );
}

interface EditScreenProps<F extends string> {
  resource: ResourceDeclaration<F>;
  recordId: string | null;
  /** Starting values of a new record beyond the empty ones. */
  prefill?: Model;
  /**
   * What a feature page that embeds the generic form adds (decision 0188): toolbar, actions beside Save, content
   * before and after the form, a field's own control, typed by the resource's field names.
   */
  slots?: EditSlots<F>;
}

export function EditScreen<F extends string = string>({
  resource: typedResource,
  recordId,
  prefill,
  slots: typedSlots,
}: EditScreenProps<F>) {
  const resource = typedResource as unknown as ResourceDeclaration;
  const slots = typedSlots as EditSlots | undefined;
  const me = useIdentity();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const context = useFieldContext();
  const options = screenOptionsOf(resource);
  const creating = recordId === null && !resource.singleRecord;
  const canWrite = resource.permissions.write !== null && can(me, resource.permissions.write);
  const noun = resource.title.replace(/s$/, '').toLowerCase();

  const record = useQuery({
    queryKey: ['record', resource.name, recordId],
    queryFn: () => fetchRecord(resource, recordId),
    enabled: !creating,
    staleTime: 0,
    gcTime: 0,
  });

  const [model, setModel] = useState<Model | null>(creating ? { ...emptyModel(resource), ...prefill } : null);
  const [original, setOriginal] = useState<Model | null>(
    creating ? { ...emptyModel(resource), ...prefill } : null,
  );
  useEffect(() => {
    if (record.data) {
      setModel(record.data);
      setOriginal(record.data);
    }
  }, [record.data]);

  // Field tooltips (GET tooltips): the association's help texts over the declared ones, shown on hover or focus.
  const tooltips = useQuery({
    queryKey: ['tooltips', resource.name],
    queryFn: () => api.get<Record<string, string>>(`/api/help/tooltips/${encodeURIComponent(resource.name)}`),
    staleTime: 60_000,
  });
  const withTooltips = useMemo(() => {
    const tips = tooltips.data;
    if (!tips) return resource;
    const fields = Object.fromEntries(
      Object.entries(resource.fields).map(([name, f]) => [name, { ...f, tooltip: tips[name] ?? f.tooltip }]),
    );
    return { ...resource, fields };
  }, [resource, tooltips.data]);

  const [fieldErrors, setFieldErrors] = useState<Record<string, string | undefined>>({});
  const [controlErrors, setControlErrors] = useState<Record<string, string | null>>({});
  const [failure, setFailure] = useState<ErrorInfo | null>(null);
  const [conflict, setConflict] = useState<ConcurrencyConflictError | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const errorRef = useRef<HTMLDivElement>(null);
  const conflictRef = useRef<HTMLDivElement>(null);

  const writable = useMemo(
    () =>
      Object.entries(resource.fields)
        .filter(([, f]) => !f.readOnly)
        .map(([n]) => n),
    [resource],
  );
  const changedFields = useMemo(
    () => (model ? writable.filter((n) => isFieldChanged(original, model, n)) : []),
    [model, original, writable],
  );
  const dirty = !done && changedFields.length > 0;

  // Watched fields: after a pause (the sticky-field delay) the server recalculates and its answer is merged.
  const watchKey = model ? JSON.stringify((resource.watchedFields ?? []).map((f) => model[f])) : '';
  const firstWatch = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the watched values are the trigger
  useEffect(() => {
    if (!resource.recalculate || !model) return;
    if (firstWatch.current) {
      firstWatch.current = false;
      return;
    }
    const timer = setTimeout(() => {
      recalculate(resource, model)
        .then((answer) => setModel((m) => (m ? { ...m, ...answer } : m)))
        .catch(() => undefined);
    }, STICKY_FIELD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [watchKey]);

  const showFailure = useCallback(
    (info: ErrorInfo) => {
      setFailure(info);
      if (!NO_SCROLL_ON_ERROR.has(resource.name)) {
        requestAnimationFrame(() => {
          errorRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
          errorRef.current?.focus({ preventScroll: true });
        });
      }
    },
    [resource.name],
  );

  const backToList = () => navigate(resource.singleRecord ? '/a' : listPath(resource));

  const formModel = model;
  const save = async (over?: Model) => {
    // `over`: the model to save instead of the form's (the user's values on the version someone else saved).
    const model = over ?? formModel;
    if (!model) return;
    setFailure(null);
    setConflict(null);
    // Pre-save: the shared rules, so messages show next to their fields before anything is sent.
    const checked = normalizeModel(resource, model, {
      websitePrefix: context.websitePrefix,
      timeZone: context.timeZone,
    });
    const errors: Record<string, string | undefined> = {};
    for (const [name, messages] of Object.entries(checked.errors)) errors[name] = messages.join(', ');
    for (const [name, message] of Object.entries(controlErrors)) if (message) errors[name] = message;
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) {
      showFailure({ message: 'Some fields need a look: they are marked below.', isKnown: true });
      return;
    }
    if (options.highlightChanges && !creating && changedFields.length > 0 && !over) {
      const ok = await confirmDialog({
        title: 'Save changes',
        message: SAVE_CHANGED_FIELDS_QUESTION,
        okLabel: 'Save',
      });
      if (!ok) return;
    }
    setBusy(true);
    try {
      const body = {
        ...model,
        ...(recordId !== null ? { [resource.key]: model[resource.key] ?? recordId } : {}),
      };
      const result = await saveWithBusinessChecks(resource, body);
      if (!result.saved) return;
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
      await afterSave(result.answer, me.tenant.settings.notificationDurationMs);
      if (resource.singleRecord) {
        // A single record holds the association's settings, which the identity carries to every screen.
        void queryClient.invalidateQueries({ queryKey: meQueryKey });
        setOriginal(result.answer.Data);
        setModel(result.answer.Data);
        setDone(false);
      } else backToList();
    } catch (error) {
      if (error instanceof ConcurrencyConflictError) {
        setConflict(error);
        requestAnimationFrame(() =>
          conflictRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' }),
        );
        return;
      }
      if (isApiError(error)) {
        const next: Record<string, string | undefined> = {};
        for (const [name, messages] of Object.entries(error.errors)) next[name] = messages.join(', ');
        setFieldErrors(next);
      }
      const info = toErrorInfo(error);
      const generic = `Your item was not ${creating ? 'added' : 'saved'} successfully!`;
      showFailure(info.isKnown ? info : { message: generic, isKnown: true });
    } finally {
      setBusy(false);
    }
  };

  const saveDraft = async () => {
    if (!model) return;
    setBusy(true);
    try {
      const result = await saveWithBusinessChecks(resource, model, (body) =>
        requestWithHeaders<SaveResponse>(`${apiBase(resource)}/${resource.view}SaveDraft`, {
          method: 'POST',
          body,
        }),
      );
      if (result.saved) {
        setDone(true);
        await afterSave(result.answer);
        backToList();
      }
    } catch (error) {
      showFailure(toErrorInfo(error));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (kind: 'delete' | 'void') => {
    if (recordId === null) return;
    const ok = await confirmDialog({
      title: `${kind === 'delete' ? 'Delete' : 'Void'} ${model ? recordNameOf(resource, model, displayTimeZone(me)) : `this ${noun}`}?`,
      message:
        kind === 'delete'
          ? 'The record is removed from the list. This cannot be undone here.'
          : 'The record stays on file, marked void.',
      okLabel: kind === 'delete' ? 'Delete' : 'Void',
      danger: true,
    });
    if (!ok) return;
    try {
      const seen = original?.[RECORD_VERSION_FIELD];
      await removeRecord(resource, recordId, kind, typeof seen === 'number' ? seen : undefined);
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
      notifyInfo(
        kind === 'delete' ? 'The record was deleted.' : 'The record was voided.',
        kind === 'delete' ? 'Deleted' : 'Voided',
      );
      backToList();
    } catch (error) {
      showFailure(toErrorInfo(error));
    }
  };

  // A single record (the association's settings) is named by its screen, not by the record's own name.
  const title = creating
    ? `New ${noun}`
    : resource.singleRecord
      ? resource.title
      : String((model && (model.Name ?? model.Title ?? model.DisplayName)) ?? resource.title);

  if (!creating && record.isPending) return <LoadingBlock />;
  if (!creating && record.error)
    return (
      <>
        <PageHeader title={resource.title} above={<BackLink resource={resource} />} />
        <ErrorBlock error={record.error} onRetry={() => void record.refetch()} />
      </>
    );
  if (!model) return <LoadingBlock />;

  const slotProps: EditSlotProps = {
    model,
    original,
    creating,
    dirty,
    canWrite,
    setField: (name, value) => setModel((m) => (m ? { ...m, [name]: value } : m)),
  };
  const { toolbar: Toolbar, actions: Actions, before: Before, after: After } = slots ?? {};
  return (
    <>
      <UnsavedChangesPrompt when={dirty} />
      <PageHeader
        title={title}
        description={slots?.description}
        above={resource.singleRecord ? undefined : <BackLink resource={resource} />}
        actions={
          <>
            {Toolbar ? <Toolbar {...slotProps} /> : null}
            {recordId !== null && !resource.singleRecord ? (
              <RecordNavigator resource={resource} id={recordId} />
            ) : null}
          </>
        }
      />
      <Stack gap={0} maw={960}>
        {Before ? <Before {...slotProps} /> : null}
        {failure ? (
          <div style={{ marginBottom: 'var(--mantine-spacing-md)' }}>
            <ErrorBlock ref={errorRef} message={failure.message} isKnown={failure.isKnown} />
          </div>
        ) : null}
        {conflict ? (
          <div ref={conflictRef}>
            <ConflictPanel
              resource={resource}
              message={conflict.message}
              theirs={conflict.current}
              yours={model}
              context={context}
              busy={busy}
              onLoadTheirs={() => {
                setModel(conflict.current);
                setOriginal(conflict.current);
                setConflict(null);
              }}
              onSaveMine={() => {
                const mine = { ...model, [RECORD_VERSION_FIELD]: conflict.current[RECORD_VERSION_FIELD] };
                setModel(mine);
                void save(mine);
              }}
            />
          </div>
        ) : null}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          noValidate
        >
          <fieldset disabled={!canWrite} style={{ border: 0, padding: 0, margin: 0 }}>
            <RecordForm
              resource={withTooltips}
              sections={resource.form}
              model={model}
              original={original}
              errors={fieldErrors}
              highlightChanges={options.highlightChanges === true && !creating}
              context={context}
              onField={(name, value) => {
                setModel((m) => (m ? { ...m, [name]: value } : m));
                setFieldErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
              }}
              onValidity={(name, error) => setControlErrors((c) => ({ ...c, [name]: error }))}
              controls={slots?.fields}
            />
          </fieldset>
          <Group justify="space-between" mt="md" gap="sm">
            <Group gap="sm">
              {canWrite ? (
                <Button type="submit" loading={busy}>
                  Save
                </Button>
              ) : null}
              {resource.singleRecord ? null : (
                <Button variant="default" onClick={backToList}>
                  Cancel
                </Button>
              )}
              {Actions ? <Actions {...slotProps} /> : null}
            </Group>
            <ExtraActions
              resource={resource}
              canWrite={canWrite}
              creating={creating}
              onPrint={() => openPrintPreview(resource, model, context)}
              onDraft={saveDraft}
              onRemove={remove}
            />
          </Group>
        </form>
        {After ? <After {...slotProps} /> : null}
      </Stack>
    </>
  );
}

function BackLink({ resource }: { resource: ResourceDeclaration }) {
  return (
    <Anchor component={Link} to={listPath(resource)} size="sm">
      ← {resource.title}
    </Anchor>
  );
}

/** Print, draft, void and delete: shown on demand, hidden again 4000 ms later. */
function ExtraActions(props: {
  resource: ResourceDeclaration;
  canWrite: boolean;
  creating: boolean;
  onPrint: () => void;
  onDraft: () => void;
  onRemove: (kind: 'delete' | 'void') => void;
}) {
  const [shown, setShown] = useState(false);
  const hide = useCallback(() => setShown(false), []);
  const hover = useAutoHide(shown, hide);
  const c = props.resource.capabilities;
  return (
    <Group gap="xs" {...hover}>
      {shown ? (
        <Group gap="xs" role="group" aria-label="Extra actions">
          <Button variant="default" size="sm" onClick={props.onPrint}>
            Print preview
          </Button>
          {props.canWrite && c.draft ? (
            <Button variant="default" size="sm" onClick={props.onDraft}>
              Save draft
            </Button>
          ) : null}
          {props.canWrite && c.void && !props.creating ? (
            <Button variant="default" color="orange" size="sm" onClick={() => props.onRemove('void')}>
              Void
            </Button>
          ) : null}
          {props.canWrite && c.delete && !props.creating ? (
            <Button variant="light" color="red" size="sm" onClick={() => props.onRemove('delete')}>
              Delete
            </Button>
          ) : null}
        </Group>
      ) : (
        <Button
          variant="subtle"
          size="sm"
          leftSection={<IconDots size={16} aria-hidden />}
          onClick={() => setShown(true)}
        >
          More actions
        </Button>
      )}
    </Group>
  );
}

/** Previous and next record of the list the record was opened from, across its pages. */
function RecordNavigator({ resource, id }: { resource: ResourceDeclaration; id: string }) {
  const navigate = useNavigate();
  const [nav, setNav] = useState<RecordNavigation | null>(() => loadNavigation(resource));
  const position = positionOf(nav, id);
  useEffect(() => {
    if (!nav || position === null) return;
    let live = true;
    extendNavigation(resource, nav, position)
      .then((next) => {
        if (live && next !== nav) setNav(next);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [resource, nav, position]);
  if (!nav || position === null) return null;
  const go = (direction: 'previous' | 'next') => {
    const target = adjacentRecordIndex(position - nav.offset, nav.ids.length, direction);
    const targetId = target === null ? undefined : nav.ids[target];
    if (targetId !== undefined) navigate(recordPath(resource, targetId));
  };
  return (
    <Group gap={4} wrap="nowrap">
      <Button
        variant="default"
        size="xs"
        aria-label="Previous record"
        disabled={position - nav.offset <= 0}
        onClick={() => go('previous')}
        leftSection={<IconChevronLeft size={14} aria-hidden />}
      >
        Previous
      </Button>
      <Text size="sm" c="dimmed" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
        {position + 1} of {nav.total}
      </Text>
      <Button
        variant="default"
        size="xs"
        aria-label="Next record"
        disabled={position - nav.offset >= nav.ids.length - 1}
        onClick={() => go('next')}
        rightSection={<IconChevronRight size={14} aria-hidden />}
      >
        Next
      </Button>
    </Group>
  );
}
