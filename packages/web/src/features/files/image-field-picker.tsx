/**
 * The control of an `image` field (decision 0092): the image's thumbnail, and the image dialog to upload one, choose
 * one from the library and crop it; the field keeps the library file's id. The generic input around it draws the
 * label and the error.
 */
import { fileImageUrl } from '@guildhall/shared';
import { Button, Group } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useState } from 'react';
import type { FieldInputProps } from '../../platform/fields/field-types.ts';
import { ImageDialog } from './image-dialog.tsx';

const fileIdOf = (value: unknown): number | null => {
  const id = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

export default function ImageFieldPicker(props: FieldInputProps) {
  const fileId = fileIdOf(props.value);
  const [open, setOpen] = useState(false);
  // A new crop keeps the file's address: the thumbnail is asked again after each save of the dialog.
  const [shown, setShown] = useState(0);
  const label = props.field.label.toLowerCase();
  return (
    <Group gap="sm" align="center" mt={4}>
      {fileId !== null ? (
        <img
          src={`${fileImageUrl(fileId, 'thumbnail')}${shown ? `?v=${shown}` : ''}`}
          alt={props.field.label}
          width={96}
          height={96}
          className="gh-image"
          data-testid={`${props.name}-thumbnail`}
          style={{ display: 'block', objectFit: 'cover', borderRadius: 4 }}
        />
      ) : (
        <IconPhoto size={32} aria-hidden style={{ color: 'var(--mantine-color-dimmed)' }} />
      )}
      <Group gap="xs">
        <Button size="xs" variant="light" onClick={() => setOpen(true)}>
          {fileId !== null ? `Change ${label}…` : `Add ${label}…`}
        </Button>
        {fileId !== null ? (
          <Button size="xs" variant="subtle" color="red" onClick={() => props.onChange(null)}>
            Remove {label}
          </Button>
        ) : null}
      </Group>
      {open ? (
        <ImageDialog
          opened
          fileId={fileId}
          onClose={(result) => {
            setOpen(false);
            if (!result) return;
            // Remove in the dialog empties the field (the library keeps the file).
            props.onChange(result.FileId > 0 ? result.FileId : null);
            setShown((n) => n + 1);
          }}
        />
      ) : null}
    </Group>
  );
}
