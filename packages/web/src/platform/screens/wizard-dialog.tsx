import {
  type FormSectionDeclaration,
  firstVisibleStep,
  type Model,
  modalZIndex,
  normalizeField,
  planNext,
  planPrevious,
  type ResourceDeclaration,
  type WizardStep,
  wizardNavigation,
} from '@guildhall/shared';
import { Button, Group, Modal, Stepper, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { api } from '../api-client.ts';
import { ErrorBlock, type ErrorInfo, toErrorInfo } from '../error-block.tsx';
import { useIdentity } from '../identity.ts';
import { unsavedChangesDialog } from './dialogs.tsx';
import { useFieldContext } from './field-context.ts';
import { PrintableRecord } from './print-preview.tsx';
import { emptyModel, RecordForm } from './record-form.tsx';
import { apiBase } from './resources.ts';
import { afterSave, saveWithBusinessChecks } from './save-flow.ts';

interface Step extends WizardStep<Model> {
  title: string;
  section: FormSectionDeclaration | null;
}

/**
 * Creating a record step by step: one step per form section that has something to fill in, then a review. Steps
 * follow the shared wizard rules; leaving the first step runs the duplicate check where the resource has one.
 */
export default function WizardDialog({
  resource,
  onClose,
}: {
  resource: ResourceDeclaration;
  onClose: (saved: boolean) => void;
}) {
  const me = useIdentity();
  const context = useFieldContext();
  const steps: Step[] = useMemo(() => {
    const unique = resource.uniqueFields ?? [];
    return [
      ...resource.form.map((section, index) => ({
        key: section.title,
        title: section.title,
        section,
        showCondition: section.fields.some((f) => resource.fields[f] && !resource.fields[f].readOnly),
        hidePrevious: false,
        hasCompletionAction:
          index === 0 &&
          resource.capabilities.duplicateCheck &&
          section.fields.some((f) => unique.includes(f)),
      })),
      { key: 'review', title: 'Review', section: null, disablePrevious: false },
    ];
  }, [resource]);
  const [model, setModel] = useState<Model>(() => emptyModel(resource));
  const [current, setCurrent] = useState(() => firstVisibleStep(steps, emptyModel(resource)) ?? 0);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<ErrorInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);

  const step = steps[current];
  const stepErrors = (s: Step | undefined): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const name of s?.section?.fields ?? []) {
      const field = resource.fields[name];
      if (!field || field.readOnly) continue;
      const checked = normalizeField(field, model[name], {
        websitePrefix: context.websitePrefix,
        timeZone: context.timeZone,
      });
      if ('error' in checked) out[name] = checked.error;
    }
    return out;
  };
  const valid = Object.keys(stepErrors(step)).length === 0;
  const nav = wizardNavigation(steps, current, model, valid);
  const visible = steps.filter((s) => s.showCondition !== false);

  const close = async () => {
    if (touched && !(await unsavedChangesDialog())) return;
    onClose(false);
  };

  const next = async () => {
    const found = stepErrors(step);
    setErrors(found);
    const plan = planNext(steps, current, model, Object.keys(found).length === 0);
    if (plan.type === 'blocked') return;
    setFailure(null);
    setBusy(true);
    try {
      for (const action of plan.actions) {
        if (action.kind === 'complete') {
          const answer = await api.post<{ IsDuplicate: boolean; Fields: string[] }>(
            `${apiBase(resource)}/${resource.view}DuplicateCheck`,
            model,
          );
          if (answer.IsDuplicate) {
            setErrors(
              Object.fromEntries(
                answer.Fields.map((f) => [
                  f,
                  `Another record already has this ${resource.fields[f]?.label ?? f}.`,
                ]),
              ),
            );
            return;
          }
        }
      }
      if (plan.type === 'move') {
        setCurrent(plan.to);
        return;
      }
      const result = await saveWithBusinessChecks(resource, model);
      if (!result.saved) return;
      await afterSave(result.answer, me.tenant.settings.notificationDurationMs);
      onClose(true);
    } catch (error) {
      setFailure(toErrorInfo(error));
    } finally {
      setBusy(false);
    }
  };

  const previous = () => {
    const plan = planPrevious(steps, current, model);
    if (plan.type === 'move') setCurrent(plan.to);
  };

  const noun = resource.title.replace(/s$/, '').toLowerCase();
  return (
    <Modal
      opened
      onClose={() => void close()}
      title={`New ${noun}`}
      size="xl"
      centered
      zIndex={modalZIndex(0)}
    >
      <Stepper active={visible.indexOf(step as Step)} size="xs" mb="md" allowNextStepsSelect={false}>
        {visible.map((s) => (
          <Stepper.Step key={s.key} label={s.title} />
        ))}
      </Stepper>
      <Text size="sm" c="dimmed" mb="xs" aria-live="polite">
        Step {visible.indexOf(step as Step) + 1} of {visible.length}: {step?.title}
      </Text>
      {failure ? <ErrorBlock message={failure.message} isKnown={failure.isKnown} /> : null}
      {step?.section ? (
        <RecordForm
          resource={resource}
          sections={[step.section]}
          model={model}
          original={null}
          errors={errors}
          highlightChanges={false}
          context={context}
          headingOrder={3}
          onField={(name, value) => {
            setTouched(true);
            setModel((m) => ({ ...m, [name]: value }));
            setErrors((e) => ({ ...e, [name]: undefined }));
          }}
        />
      ) : (
        <PrintableRecord resource={resource} model={model} context={context} />
      )}
      <Group justify="space-between" mt="md">
        <Button variant="default" onClick={() => void close()}>
          Cancel
        </Button>
        <Group gap="xs">
          {nav.showPrevious ? (
            <Button variant="default" disabled={!nav.enablePrevious} onClick={previous}>
              Previous
            </Button>
          ) : null}
          {nav.showNext ? (
            <Button onClick={() => void next()} loading={busy}>
              {nav.isLast ? 'Finish' : 'Next'}
            </Button>
          ) : null}
        </Group>
      </Group>
    </Modal>
  );
}
