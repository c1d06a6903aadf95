/** A template's header button: open it in the email designer (a rich-text template becomes a designed one on save). */
import { Button } from '@mantine/core';
import { IconLayoutBoard } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';

export default function TemplateRecordActions({ recordId, record }: RecordActionProps) {
  return (
    <Button
      component={Link}
      to={`/a/designer/templates/${recordId}`}
      variant={record.Kind === 'newsletter' ? 'filled' : 'default'}
      leftSection={<IconLayoutBoard size={16} />}
    >
      {record.Kind === 'newsletter' ? 'Open the designer' : 'Design it'}
    </Button>
  );
}
