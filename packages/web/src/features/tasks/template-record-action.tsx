/** The template record's "Create a project" button: the new project form with this template chosen. */
import { Button } from '@mantine/core';
import { Link } from 'react-router';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';

export default function TemplateRecordAction({ recordId }: RecordActionProps) {
  return (
    <Button component={Link} to={`/a/tasks/from-template?template=${encodeURIComponent(recordId)}`}>
      Create a project
    </Button>
  );
}
