import {
  DEFAULT_TIMEZONE,
  type FieldDeclaration,
  type Model,
  type ViewTemplate,
  type ViewTemplateComponent,
} from '@guildhall/shared';
import { Button, Group, Table } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { notifyError } from '../notify.ts';
import { openDialog } from './dialog-store.ts';
import { confirmDialog, fetchViewTemplate, informationDialog, StackedModal } from './dialogs.tsx';
import type { ColumnView } from './list-columns.ts';
import { openPrintPreview } from './print-preview.tsx';
import { ReportView } from './reports/report-view.tsx';
import { resourceByName } from './resources.ts';

type Opener = (template: ViewTemplate, props: Record<string, unknown>) => Promise<unknown>;

const TableSettingsDialog = lazy(() => import('./table-settings-dialog.tsx'));
const SignatureManager = lazy(() => import('../editor/signature-manager.tsx'));

const text = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);

/**
 * The dialog components the server's view templates name (`Component`), by name: typed by the shared closed list,
 * so a template naming a component missing here does not compile.
 */
export const TEMPLATE_COMPONENTS: Record<ViewTemplateComponent, Opener> = {
  ConfirmationDialog: (t, p) =>
    confirmDialog({
      title: t.Title,
      message: text(p.message, 'Are you sure?'),
      ...(typeof p.phrase === 'string' ? { phrase: p.phrase } : {}),
    }),
  InformationDialog: (t, p) => informationDialog({ title: t.Title, message: text(p.message) }),
  ReportPopup: (t, p) => {
    const reportId = text(p.ReportId);
    const title = text(p.Title, t.Title);
    return openDialog<void>((close) => (
      <StackedModal opened onClose={() => close()} title={title} size={t.Size === 'full' ? '100%' : t.Size}>
        <ReportView reportId={reportId} title={title} />
      </StackedModal>
    ));
  },
  ScreenFieldsDescriptionDialog: (t, p) => {
    const resource = resourceByName(text(p.resource, 'samples'));
    const fields = Object.entries(resource?.fields ?? {}) as [string, FieldDeclaration][];
    return openDialog<void>((close) => (
      <StackedModal opened onClose={() => close()} title={t.Title} size={t.Size}>
        <Table aria-label="Fields">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Description</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map(([name, f]) => (
              <Table.Tr key={name}>
                <Table.Td>{f.label}</Table.Td>
                <Table.Td>{f.type}</Table.Td>
                <Table.Td>{f.tooltip ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group justify="flex-end" mt="md">
          <Button onClick={() => close()}>Close</Button>
        </Group>
      </StackedModal>
    ));
  },
  /** Props: `columns` (the list's column views) and `onSave(columns)`; resolves with the saved columns. */
  TableSettingsDialog: (_t, p) => {
    const columns = Array.isArray(p.columns) ? (p.columns as ColumnView[]) : [];
    const onSave = typeof p.onSave === 'function' ? (p.onSave as (c: ColumnView[]) => unknown) : null;
    return openDialog<ColumnView[]>((close) => (
      <Suspense fallback={null}>
        <TableSettingsDialog
          columns={columns}
          onClose={() => close()}
          onSave={async (next) => {
            await onSave?.(next);
            close(next);
          }}
        />
      </Suspense>
    ));
  },
  /** The current user's signatures (spec 001 section 2: opened from the editor in a large modal). */
  SignatureManager: (t) =>
    openDialog<void>((close) => (
      <StackedModal opened onClose={() => close()} title={t.Title} size={t.Size === 'full' ? '100%' : t.Size}>
        <Suspense fallback={null}>
          <SignatureManager onClose={() => close()} />
        </Suspense>
      </StackedModal>
    )),
  /** Props: `resource` (its name), `model` (the record) and `timeZone`. */
  PrintPreviewDialog: (_t, p) => {
    const resource = resourceByName(text(p.resource));
    if (!resource) return Promise.reject(new Error('The print preview needs a resource.'));
    const model = (typeof p.model === 'object' && p.model !== null ? p.model : {}) as Model;
    return openPrintPreview(resource, model, { timeZone: text(p.timeZone, DEFAULT_TIMEZONE) });
  },
};

/** Opens the dialog a screen key resolves to (`/a/ViewTemplates/Index/{key}`, `/a/ViewTemplates/Reporting`). */
export async function openViewTemplate(key: string, props: Record<string, unknown> = {}): Promise<unknown> {
  try {
    const template = await fetchViewTemplate(key);
    const open = TEMPLATE_COMPONENTS[template.Component as ViewTemplateComponent];
    if (!open) throw new Error(`No dialog component ${template.Component}`);
    return await open(template, { ...template.Props, ...props });
  } catch (error) {
    notifyError(error);
    return undefined;
  }
}
