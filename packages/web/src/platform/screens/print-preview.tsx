import type { FieldDeclaration, Model, ResourceDeclaration } from '@guildhall/shared';
import { Button, Group, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { displayText } from '../fields/field-display.tsx';
import type { FieldContext } from '../fields/field-types.ts';
import { openDialog } from './dialog-store.ts';
import { StackedModal } from './dialogs.tsx';
import './print-preview.css';

/** A printable rendering of a record: its form sections as label and value pairs, with a print stylesheet. */
export function PrintableRecord({
  resource,
  model,
  context,
}: {
  resource: ResourceDeclaration;
  model: Model;
  context: Pick<FieldContext, 'timeZone'>;
}) {
  return (
    <div className="gh-print-area">
      {resource.form.map((section) => (
        <section key={section.title}>
          <Title order={3} size="h5" mb={4}>
            {section.title}
          </Title>
          <dl>
            {section.fields.map((name) => {
              const field = resource.fields[name] as FieldDeclaration | undefined;
              if (!field) return null;
              return [
                <dt key={`${name}-t`}>{field.label}</dt>,
                <dd key={`${name}-d`}>{displayText({ field, value: model[name], context })}</dd>,
              ];
            })}
          </dl>
        </section>
      ))}
    </div>
  );
}

export function openPrintPreview(
  resource: ResourceDeclaration,
  model: Model,
  context: Pick<FieldContext, 'timeZone'>,
) {
  const title = String(model.Name ?? model.Title ?? resource.title);
  return openDialog<void>((close) => (
    <StackedModal opened onClose={() => close()} title={`Print preview: ${title}`} size="lg">
      <PrintableRecord resource={resource} model={model} context={context} />
      <Group justify="flex-end" className="gh-no-print" mt="md">
        <Button variant="default" onClick={() => close()}>
          Close
        </Button>
        <Button leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
          Print
        </Button>
      </Group>
    </StackedModal>
  ));
}
