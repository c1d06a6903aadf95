/**
 * The rich-text editor of the product (spec 001 sections 4, 5 and 9): Tiptap 3 through @mantine/tiptap. It reports
 * a change (dirty) when the content changes, turns editing off in read-only mode, counts characters against an
 * optional maximum (`editormaxlength`), offers the 56 emoticon faces, images (uploaded through
 * `POST /api/images/upload/`, which answers `link`, or chosen from the library), merge fields as atomic chips (the
 * merge fields dialog), and the current user's signatures (with the signature manager). Stored HTML is sanitized
 * with DOMPurify before it is loaded; the server sanitizes every save.
 */
import '@mantine/tiptap/styles.css';
import './editor.css';
import {
  EDITOR_BASE_Z_INDEX,
  EDITOR_EMOTICONS,
  MERGE_FLAGS,
  SIGNATURE_MANAGER_KEY,
  type Signature,
  TEMPLATE_TYPES,
} from '@guildhall/shared';
import { Group, Menu, Popover, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { getUploadImageExtension, Link, RichTextEditor as MantineEditor } from '@mantine/tiptap';
import { IconBraces, IconMoodSmile, IconPhoto, IconSignature } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Image from '@tiptap/extension-image';
import { CharacterCount, Placeholder } from '@tiptap/extensions';
import { type Editor, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef } from 'react';
import { api } from '../api-client.ts';
import { notifyError } from '../notify.ts';
import { openViewTemplate } from '../screens/view-templates.tsx';
import { openImageLibrary } from './image-library.tsx';
import { type MergeContext, openMergeFieldDialog } from './merge-field-dialog.tsx';
import { type MergeFieldAttrs, MergeFieldNode } from './merge-field-node.ts';
import { purify } from './safe-html.tsx';

export interface RichTextEditorProps {
  value: string;
  onChange: (html: string) => void;
  readOnly?: boolean;
  /** The most characters a reader sees (`editormaxlength`); none when unset. */
  maxLength?: number | undefined;
  /** Which merge fields the dialog offers; no merge field button without one. */
  mergeContext?: MergeContext | null;
  /** Whether the signature menu shows (staff editing a message). */
  signatures?: boolean;
  placeholder?: string;
  /** Accessible name of the editing area. */
  label: string;
  minHeight?: number;
}

/** POST /api/images/upload/ answers `link`: the image's public address (absolute, so it works in sent mail). */
export async function uploadEditorImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const res = await fetch('/api/images/upload/', { method: 'POST', body: form, credentials: 'same-origin' });
  const body = (await res.json().catch(() => ({}))) as { link?: string; message?: string };
  if (!res.ok || !body.link)
    throw new Error(body.message ?? `The image could not be uploaded (${res.status}).`);
  return body.link;
}

function selectedChip(editor: Editor): MergeFieldAttrs | null {
  const { selection } = editor.state;
  const node =
    'node' in selection ? (selection as { node?: { type: { name: string }; attrs: unknown } }).node : null;
  if (node && node.type.name === 'mergeField') return node.attrs as MergeFieldAttrs;
  return null;
}

function EmoticonControl({ editor }: { editor: Editor }) {
  return (
    <Popover position="bottom-start" withinPortal zIndex={EDITOR_BASE_Z_INDEX + 5} shadow="md">
      <Popover.Target>
        <MantineEditor.Control aria-label="Insert emoticon" title="Insert emoticon">
          <IconMoodSmile size={16} stroke={1.5} />
        </MantineEditor.Control>
      </Popover.Target>
      <Popover.Dropdown>
        <SimpleGrid cols={8} spacing={2} aria-label="Emoticons">
          {EDITOR_EMOTICONS.map((face) => (
            <UnstyledButton
              key={face}
              aria-label={`Emoticon ${face}`}
              style={{ fontSize: 20, lineHeight: '28px', width: 28, textAlign: 'center' }}
              onClick={() => editor.chain().focus().insertContent(face).run()}
            >
              {face}
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </Popover.Dropdown>
    </Popover>
  );
}

function ImageControl({ editor }: { editor: Editor }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Menu position="bottom-start" withinPortal zIndex={EDITOR_BASE_Z_INDEX + 5}>
        <Menu.Target>
          <MantineEditor.Control aria-label="Insert image" title="Insert image">
            <IconPhoto size={16} stroke={1.5} />
          </MantineEditor.Control>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => input.current?.click()}>Upload an image…</Menu.Item>
          <Menu.Item
            onClick={async () => {
              const chosen = await openImageLibrary();
              if (chosen) editor.chain().focus().setImage({ src: chosen.src, alt: chosen.alt }).run();
            }}
          >
            Choose from the library…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <input
        ref={input}
        type="file"
        accept=".jpg,.jpeg,.png,.gif,.bmp,image/*"
        hidden
        data-testid="editor-image-input"
        onChange={async (e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (!file) return;
          try {
            const link = await uploadEditorImage(file);
            editor
              .chain()
              .focus()
              .setImage({ src: link, alt: file.name.replace(/\.[^.]+$/, '') })
              .run();
          } catch (err) {
            notifyError(err);
          }
        }}
      />
    </>
  );
}

function MergeFieldControl({ editor, context }: { editor: Editor; context: MergeContext }) {
  return (
    <MantineEditor.Control
      aria-label="Insert merge field"
      title="Insert merge field"
      onClick={async () => {
        const current = selectedChip(editor);
        const choice = await openMergeFieldDialog(context, current);
        if (!choice) return;
        if (!choice.update && current) {
          // Insert after the selected chip instead of replacing it.
          const to = editor.state.selection.to;
          editor.chain().focus().setTextSelection(to).insertMergeField(choice.attrs).run();
        } else editor.chain().focus().insertMergeField(choice.attrs).run();
      }}
    >
      <IconBraces size={16} stroke={1.5} />
    </MantineEditor.Control>
  );
}

function SignatureControl({ editor }: { editor: Editor }) {
  const queryClient = useQueryClient();
  const signatures = useQuery({
    queryKey: ['signatures', 'current'],
    queryFn: () => api.get<Signature[]>('/api/signatures/currentUserSignatures'),
  });
  return (
    <Menu position="bottom-start" withinPortal zIndex={EDITOR_BASE_Z_INDEX + 5}>
      <Menu.Target>
        <MantineEditor.Control aria-label="Insert signature" title="Insert signature">
          <IconSignature size={16} stroke={1.5} />
        </MantineEditor.Control>
      </Menu.Target>
      <Menu.Dropdown>
        {(signatures.data ?? []).length === 0 ? (
          <Menu.Label>You have no signature yet</Menu.Label>
        ) : (
          signatures.data?.map((s) => (
            <Menu.Item
              key={s.SignatureId}
              onClick={() => editor.chain().focus().insertContent(purify(s.SignatureHtml)).run()}
              rightSection={s.IsDefault ? <Text size="xs">default</Text> : null}
            >
              {s.Name}
            </Menu.Item>
          ))
        )}
        <Menu.Divider />
        <Menu.Item
          onClick={async () => {
            await openViewTemplate(SIGNATURE_MANAGER_KEY);
            await queryClient.invalidateQueries({ queryKey: ['signatures'] });
          }}
        >
          Manage signatures…
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function RichTextEditor(props: RichTextEditorProps) {
  const { value, onChange, readOnly = false, maxLength, mergeContext = null } = props;
  const lastEmitted = useRef<string>(value);
  const editor = useEditor({
    immediatelyRender: true,
    shouldRerenderOnTransaction: true,
    editable: !readOnly,
    extensions: [
      StarterKit.configure({ link: false }),
      Link.configure({ openOnClick: false, protocols: ['mailto', 'tel'] }),
      getUploadImageExtension(Image.configure({ inline: false }), {
        onImageUpload: (file: File) => uploadEditorImage(file),
        onImageUploadError: (_file: File, error: unknown) => notifyError(error),
      }),
      MergeFieldNode,
      CharacterCount.configure({ limit: maxLength && maxLength > 0 ? maxLength : null }),
      Placeholder.configure({ placeholder: props.placeholder ?? 'Write here…' }),
    ],
    content: purify(value),
    editorProps: { attributes: { 'aria-label': props.label, role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      if (html === lastEmitted.current) return;
      lastEmitted.current = html;
      onChange(html);
    },
  });

  // A value set from outside (a record loaded, a draft restored) replaces the content without marking it dirty.
  useEffect(() => {
    if (!editor || value === lastEmitted.current) return;
    lastEmitted.current = value;
    editor.commands.setContent(purify(value), { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setEditable(!readOnly);
  }, [editor, readOnly]);

  const count = editor?.storage.characterCount?.characters() ?? 0;
  return (
    <MantineEditor editor={editor} data-readonly={readOnly || undefined}>
      {readOnly ? null : (
        <MantineEditor.Toolbar sticky stickyOffset={0} style={{ zIndex: EDITOR_BASE_Z_INDEX }}>
          <MantineEditor.ControlsGroup>
            <MantineEditor.Bold />
            <MantineEditor.Italic />
            <MantineEditor.Underline />
            <MantineEditor.Strikethrough />
            <MantineEditor.ClearFormatting />
          </MantineEditor.ControlsGroup>
          <MantineEditor.ControlsGroup>
            <MantineEditor.H2 />
            <MantineEditor.H3 />
            <MantineEditor.BulletList />
            <MantineEditor.OrderedList />
            <MantineEditor.Blockquote />
            <MantineEditor.Hr />
          </MantineEditor.ControlsGroup>
          <MantineEditor.ControlsGroup>
            <MantineEditor.Link />
            <MantineEditor.Unlink />
          </MantineEditor.ControlsGroup>
          {editor ? (
            <MantineEditor.ControlsGroup>
              <EmoticonControl editor={editor} />
              <ImageControl editor={editor} />
              {mergeContext ? <MergeFieldControl editor={editor} context={mergeContext} /> : null}
              {props.signatures ? <SignatureControl editor={editor} /> : null}
            </MantineEditor.ControlsGroup>
          ) : null}
          <MantineEditor.ControlsGroup>
            <MantineEditor.Undo />
            <MantineEditor.Redo />
          </MantineEditor.ControlsGroup>
        </MantineEditor.Toolbar>
      )}
      <MantineEditor.Content style={{ minHeight: props.minHeight ?? 160 }} />
      {maxLength && maxLength > 0 && !readOnly ? (
        <Group justify="flex-end" px="sm" py={4}>
          <Text size="xs" c={count >= maxLength ? 'red' : 'dimmed'} aria-live="polite">
            {count} / {maxLength}
          </Text>
        </Group>
      ) : null}
    </MantineEditor>
  );
}

/** The default context of the rich-text editor: flags 1 (spec 001 section 7), a message to a contact. */
export const RICH_TEXT_MERGE_CONTEXT: MergeContext = {
  flags: MERGE_FLAGS.RichText,
  templateType: TEMPLATE_TYPES.Email,
  entity: 'contact',
};

export default RichTextEditor;
