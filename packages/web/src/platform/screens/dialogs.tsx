import {
  EXTRA_ACTIONS_AUTO_HIDE_MS,
  isConfirmPhraseTyped,
  modalZIndex,
  type ViewTemplate,
} from '@guildhall/shared';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Modal,
  type ModalProps,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { api } from '../api-client.ts';
import { openDialog, useDialogStack } from './dialog-store.ts';

/** Renders the open dialogs, each above the one before. Mounted once, by the root layout of every area. */
export function DialogHost() {
  const stack = useDialogStack();
  return (
    <>
      {stack.map((d, index) => (
        <DialogLayer key={d.id} index={index}>
          {d.render((result) => d.settle(result))}
        </DialogLayer>
      ))}
    </>
  );
}

const DialogIndex = createContext(0);
function DialogLayer({ index, children }: { index: number; children: ReactNode }) {
  return <DialogIndex.Provider value={index}>{children}</DialogIndex.Provider>;
}

/** A Mantine modal at the stacking level of its place in the dialog stack (1050 + 10 per index). */
export function StackedModal(props: ModalProps) {
  const index = useContext(DialogIndex);
  return <Modal centered zIndex={modalZIndex(index)} {...props} />;
}

export interface ConfirmOptions {
  title?: string;
  message: ReactNode;
  okLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  /** OK is enabled only once this phrase is typed. */
  phrase?: string;
}

/** Confirmation (spec 000 section 2), optionally requiring a typed phrase before OK is enabled. */
export function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  return openDialog<boolean>((close) => <ConfirmationDialog {...options} onClose={close} />).then(
    (r) => r === true,
  );
}

function ConfirmationDialog(props: ConfirmOptions & { onClose: (ok: boolean) => void }) {
  const [typed, setTyped] = useState('');
  const ready = !props.phrase || isConfirmPhraseTyped(typed, props.phrase);
  return (
    <StackedModal opened onClose={() => props.onClose(false)} title={props.title ?? 'Please confirm'}>
      <Stack gap="md">
        <Text size="sm">{props.message}</Text>
        {props.phrase ? (
          <TextInput
            label={`Type "${props.phrase}" to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            data-autofocus
          />
        ) : null}
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => props.onClose(false)}
            data-autofocus={!props.phrase || undefined}
          >
            {props.cancelLabel ?? 'Cancel'}
          </Button>
          <Button
            color={props.danger ? 'red' : undefined}
            disabled={!ready}
            onClick={() => props.onClose(true)}
          >
            {props.okLabel ?? 'OK'}
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}

/** A YesNo question (ErrorValidation action 2): Yes, No, or dismissed. */
export function yesNoDialog(message: string, title = 'Please confirm'): Promise<'Yes' | 'No' | null> {
  return openDialog<'Yes' | 'No'>((close) => (
    <StackedModal opened onClose={() => close()} title={title}>
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => close()}>
            Cancel
          </Button>
          <Button variant="default" onClick={() => close('No')}>
            No
          </Button>
          <Button onClick={() => close('Yes')} data-autofocus>
            Yes
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  )).then((r) => r ?? null);
}

export interface InformationOptions {
  title?: string;
  message: ReactNode;
  extraButton?: { Text: string; Url: string } | undefined;
}

/** Information, with an optional extra button (post-action type 1). */
export function informationDialog(options: InformationOptions): Promise<void> {
  return openDialog<void>((close) => (
    <StackedModal opened onClose={() => close()} title={options.title ?? 'Information'}>
      <Stack gap="md">
        <Text size="sm">{options.message}</Text>
        <Group justify="flex-end">
          {options.extraButton ? (
            <Button component="a" href={options.extraButton.Url} variant="default">
              {options.extraButton.Text}
            </Button>
          ) : null}
          <Button onClick={() => close()} data-autofocus>
            OK
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  )).then(() => undefined);
}

/** The error dialog (ErrorValidation action 1). */
export function errorDialog(message: string, title = 'Oh no :('): Promise<void> {
  return openDialog<void>((close) => (
    <StackedModal opened onClose={() => close()} title={title}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start" role="alert">
          <IconAlertTriangle color="var(--mantine-color-red-7)" aria-hidden />
          <Text size="sm">{message}</Text>
        </Group>
        <Group justify="flex-end">
          <Button onClick={() => close()} data-autofocus>
            OK
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  )).then(() => undefined);
}

/** "Unsaved Changes" before closing a dialog that holds changes: true means leave without saving. */
export function unsavedChangesDialog(): Promise<boolean> {
  return openDialog<boolean>((close) => (
    <StackedModal opened onClose={() => close(false)} title="Unsaved Changes">
      <Text size="sm">You have changes that are not saved. Leave this page and lose them?</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => close(false)} data-autofocus>
          Stay on this page
        </Button>
        <Button color="red" onClick={() => close(true)}>
          Leave without saving
        </Button>
      </Group>
    </StackedModal>
  )).then((r) => r === true);
}

/** The privacy-policy acceptance modal: Accept is enabled once the box is ticked; it cannot be dismissed. */
export function privacyPolicyDialog(policy: ReactNode, policyUrl?: string): Promise<boolean> {
  return openDialog<boolean>((close) => (
    <PrivacyPolicy policy={policy} policyUrl={policyUrl} onClose={close} />
  )).then((r) => r === true);
}

function PrivacyPolicy(props: {
  policy: ReactNode;
  policyUrl?: string | undefined;
  onClose: (ok: boolean) => void;
}) {
  const [read, setRead] = useState(false);
  return (
    <StackedModal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      title="Privacy policy"
      size="lg"
    >
      <Stack gap="md">
        <div style={{ maxHeight: 320, overflow: 'auto' }}>{props.policy}</div>
        {props.policyUrl ? (
          <Anchor href={props.policyUrl} target="_blank" size="sm">
            Read the full privacy policy
          </Anchor>
        ) : null}
        <Checkbox
          label="I have read and accept the privacy policy"
          checked={read}
          onChange={(e) => setRead(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => props.onClose(false)}>
            Decline
          </Button>
          <Button disabled={!read} onClick={() => props.onClose(true)}>
            Accept
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}

/** Extra actions hide themselves 4000 ms after they were shown unless the pointer or focus is on them. */
export function useAutoHide(shown: boolean, hide: () => void) {
  const [hovered, setHovered] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!shown || hovered) return;
    timer.current = setTimeout(hide, EXTRA_ACTIONS_AUTO_HIDE_MS);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [shown, hovered, hide]);
  return {
    onMouseEnter: () => setHovered(true),
    onMouseLeave: () => setHovered(false),
    onFocus: () => setHovered(true),
    onBlur: () => setHovered(false),
  };
}

export const fetchViewTemplate = (key: string) =>
  api.get<ViewTemplate>(
    key === 'Reporting' ? '/a/ViewTemplates/Reporting' : `/a/ViewTemplates/Index/${encodeURIComponent(key)}`,
  );
