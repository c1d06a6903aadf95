import type { FieldDeclaration, Model, ResourceDeclaration } from '@guildhall/shared';
import { Alert, Button, Group, Table, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { displayText } from '../fields/field-display.tsx';
import type { FieldContext } from '../fields/field-types.ts';

/** The fields whose saved value (theirs) differs from the form's (yours), in form order. */
export function conflictingFields(resource: ResourceDeclaration, theirs: Model, yours: Model): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const inForm = resource.form.flatMap((s) => s.fields);
  return inForm.filter((name) => name in theirs && !same(theirs[name], yours[name]));
}

/**
 * A save refused because someone else saved the record first (409, decision 0095): what they saved beside what the
 * user typed, field by field, and the two ways on: load their version, or save the user's over it deliberately.
 */
export function ConflictPanel(props: {
  resource: ResourceDeclaration;
  message: string;
  theirs: Model;
  yours: Model;
  context: Pick<FieldContext, 'timeZone'>;
  busy: boolean;
  onLoadTheirs: () => void;
  onSaveMine: () => void;
}) {
  const { resource, theirs, yours, context } = props;
  const fields = conflictingFields(resource, theirs, yours);
  const show = (name: string, value: unknown) => {
    const field = resource.fields[name] as FieldDeclaration | undefined;
    return field ? displayText({ field, value, context }) : String(value ?? '');
  };
  return (
    <Alert
      color="orange"
      variant="light"
      title="Someone else saved this record"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      role="alert"
      aria-label="Someone else saved this record"
      mb="md"
    >
      <Text size="sm" mb="sm">
        {props.message}
      </Text>
      {fields.length > 0 ? (
        <Table aria-label="Their values and yours" withTableBorder striped mb="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Saved by the other user</Table.Th>
              <Table.Th>Yours</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((name) => (
              <Table.Tr key={name}>
                <Table.Td>{resource.fields[name]?.label ?? name}</Table.Td>
                <Table.Td>{show(name, theirs[name])}</Table.Td>
                <Table.Td>{show(name, yours[name])}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" mb="sm">
          Their values and yours are the same in every field of this form.
        </Text>
      )}
      <Group gap="sm">
        <Button variant="default" onClick={props.onLoadTheirs} disabled={props.busy}>
          Load their version
        </Button>
        <Button color="orange" onClick={props.onSaveMine} loading={props.busy}>
          Save mine over theirs
        </Button>
      </Group>
    </Alert>
  );
}
