/**
 * The email designer (decision 0153): a template's or a draft mailing's design as a list of blocks. Blocks are added
 * from the palette (clicked, dragged onto the canvas where they should go, or picked up with Space and placed with
 * the arrow keys) or a custom content tool, reordered by dragging, edited in the side panel and removed after a
 * confirmation; text blocks use the product's rich-text editor with the designer's merge fields, signatures and
 * images, and show their merge fields as chips on the canvas. The server renders the email HTML from the design on
 * save; the preview shows that rendering. A sent mailing's design opens read-only. A route of its own, loaded on
 * demand.
 */

import {
  type CollisionDetection,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  DEFAULT_FOOTER_HTML,
  DESIGN_CUSTOM_TOOLS,
  DESIGN_FONTS,
  type Design,
  type DesignBlock,
  type DesignBlockType,
  type DesignedMessage,
  MERGE_FLAGS,
  nextBlockId,
  TEMPLATE_TYPES,
} from '@guildhall/shared';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  ColorInput,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { openImageLibrary } from '../../platform/editor/image-library.tsx';
import { RichTextEditor, uploadEditorImage } from '../../platform/editor/rich-text-editor.tsx';
import { purify } from '../../platform/editor/safe-html.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { confirmDialog } from '../../platform/screens/dialogs.tsx';

const MERGE_CONTEXT = {
  flags: MERGE_FLAGS.Designer,
  templateType: TEMPLATE_TYPES.Newsletter,
  entity: 'newsletter',
};

const PALETTE: { type: DesignBlockType; label: string }[] = [
  { type: 'heading', label: 'Heading' },
  { type: 'text', label: 'Text' },
  { type: 'image', label: 'Image' },
  { type: 'button', label: 'Button' },
  { type: 'columns', label: 'Two columns' },
  { type: 'divider', label: 'Divider' },
  { type: 'spacer', label: 'Spacer' },
  { type: 'footer', label: 'Footer' },
];

function newBlock(type: DesignBlockType, id: string): DesignBlock {
  switch (type) {
    case 'heading':
      return { Id: id, Type: 'heading', Text: 'A heading', Level: 2, Align: 'left' };
    case 'text':
      return { Id: id, Type: 'text', Html: '<p>Write here.</p>' };
    case 'image':
      return { Id: id, Type: 'image', Src: 'https://placehold.co/600x200/png', Alt: '', Align: 'center' };
    case 'button':
      return {
        Id: id,
        Type: 'button',
        Label: 'Read more',
        Href: 'https://example.org',
        BackgroundColor: '#1c7ed6',
        Color: '#ffffff',
        Align: 'center',
      };
    case 'columns':
      return { Id: id, Type: 'columns', Columns: ['<p>Left column</p>', '<p>Right column</p>'] };
    case 'divider':
      return { Id: id, Type: 'divider', Color: '#dee2e6' };
    case 'spacer':
      return { Id: id, Type: 'spacer', Height: 24 };
    case 'footer':
      return { Id: id, Type: 'footer', Html: DEFAULT_FOOTER_HTML };
  }
}

/** Draggable ids of the palette's blocks, and the canvas's drop target after the last block. */
const PALETTE_PREFIX = 'palette:';
const CANVAS_END = 'canvas-end';

/** A palette block dragged over the canvas lands where the pointer is; a canvas block moves to the closest place. */
const collisions: CollisionDetection = (args) =>
  String(args.active.id).startsWith(PALETTE_PREFIX) ? pointerWithin(args) : closestCenter(args);

/** The palette's keyboard help, read by screen readers with each entry. */
const PALETTE_HINT_ID = 'design-palette-keyboard-hint';

/**
 * A palette entry: click (or Enter) to add it after the chosen block, drag it onto the canvas, or from the keyboard
 * pick it up with Space and place it with the arrow keys (Enter or Space drops it, Escape puts it back).
 */
function PaletteBlock(props: {
  type: DesignBlockType;
  label: string;
  readOnly: boolean;
  onAdd: () => void;
  onPickUp: () => void;
}) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: `${PALETTE_PREFIX}${props.type}`,
    disabled: props.readOnly,
  });
  return (
    <Button
      ref={setNodeRef}
      variant="default"
      size="xs"
      justify="start"
      disabled={props.readOnly}
      onClick={props.onAdd}
      {...attributes}
      aria-describedby={PALETTE_HINT_ID}
      // The pointer drags through the drag library; the keyboard places the block through the page's own placing
      // (Space picks it up; Enter adds it after the chosen block as a click does).
      onPointerDown={(e: React.PointerEvent<HTMLButtonElement>) => listeners?.onPointerDown?.(e)}
      onKeyDown={(e: React.KeyboardEvent<HTMLButtonElement>) => {
        if (e.key !== ' ' || props.readOnly) return;
        // Not a click: the button is not activated by a Space whose key-down is taken.
        e.preventDefault();
        props.onPickUp();
      }}
      style={{
        transform: CSS.Translate.toString(transform),
        zIndex: isDragging ? 10 : undefined,
        position: 'relative',
      }}
    >
      {props.label}
    </Button>
  );
}

/** Below the last block: a palette block dropped here goes at the end. */
function CanvasEnd({ empty }: { empty: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: CANVAS_END });
  return (
    <div
      ref={setNodeRef}
      style={{
        minHeight: empty ? 120 : 32,
        outline: isOver ? '2px dashed var(--mantine-color-blue-5)' : undefined,
      }}
    >
      {empty ? (
        <Text c="dimmed" ta="center" p="xl">
          Add a block from the left, or drag one here.
        </Text>
      ) : null}
    </div>
  );
}

/** Where a palette block picked up from the keyboard would land. */
function PlacingLine() {
  return (
    <div
      data-testid="design-placing-line"
      aria-hidden
      style={{ height: 0, borderTop: '3px solid var(--mantine-color-blue-5)', margin: '2px 0' }}
    />
  );
}

const BLOCK_LABEL: Record<DesignBlockType, string> = Object.fromEntries(
  PALETTE.map((p) => [p.type, p.label]),
) as Record<DesignBlockType, string>;

/** How a block looks on the canvas: close to the sent message, never its exact rendering (the preview is). */
function BlockView({ block, design }: { block: DesignBlock; design: Design }) {
  const s = design.Settings;
  switch (block.Type) {
    case 'heading':
      return (
        <Title order={block.Level === 1 ? 2 : 3} ta={block.Align} c={block.Color ?? s.TextColor}>
          {block.Text}
        </Title>
      );
    case 'text':
    case 'footer':
      return (
        <div
          className="gh-design-text"
          style={block.Type === 'footer' ? { fontSize: 12, color: '#868e96' } : undefined}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: purified stored rich text
          dangerouslySetInnerHTML={{ __html: purify(block.Html) }}
        />
      );
    case 'image':
      return (
        <div style={{ textAlign: block.Align }}>
          <img
            src={block.Src}
            alt={block.Alt}
            style={{ maxWidth: '100%', width: block.Width ? `${block.Width}px` : '100%' }}
          />
        </div>
      );
    case 'button':
      return (
        <div style={{ textAlign: block.Align }}>
          <span
            style={{
              display: 'inline-block',
              padding: '10px 24px',
              borderRadius: 4,
              fontWeight: 700,
              background: block.BackgroundColor,
              color: block.Color,
            }}
          >
            {block.Label}
          </span>
        </div>
      );
    case 'columns':
      return (
        <SimpleGrid cols={2}>
          {block.Columns.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two fixed columns
            // biome-ignore lint/security/noDangerouslySetInnerHtml: purified stored rich text
            <div key={i} className="gh-design-text" dangerouslySetInnerHTML={{ __html: purify(c) }} />
          ))}
        </SimpleGrid>
      );
    case 'divider':
      return <hr style={{ border: 0, borderTop: `1px solid ${block.Color}` }} />;
    case 'spacer':
      return <div style={{ height: block.Height }} aria-hidden />;
  }
}

function SortableBlock(props: {
  block: DesignBlock;
  design: Design;
  index: number;
  count: number;
  selected: boolean;
  readOnly: boolean;
  onSelect: () => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { block, selected, readOnly } = props;
  const { attributes, listeners, setNodeRef, transform, transition, isOver, active } = useSortable({
    id: block.Id,
    disabled: readOnly,
  });
  // A palette block held over this one will land just above it.
  const incoming = isOver && String(active?.id ?? '').startsWith(PALETTE_PREFIX);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a block holds headings and paragraphs, which a button may not
    <div
      ref={setNodeRef}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={`${BLOCK_LABEL[block.Type]} block`}
      data-block-type={block.Type}
      data-testid="design-block"
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        outline: selected ? '2px solid var(--mantine-color-blue-5)' : '1px dashed transparent',
        boxShadow: incoming ? 'inset 0 3px 0 var(--mantine-color-blue-5)' : undefined,
        padding: '8px 24px',
        position: 'relative',
        cursor: 'pointer',
        background: props.design.Settings.ContentBackgroundColor,
      }}
      onClick={props.onSelect}
      onKeyDown={(e) => {
        if (e.key === 'Enter') props.onSelect();
      }}
    >
      {!readOnly && selected ? (
        <Group gap={2} style={{ position: 'absolute', right: 4, top: 4, zIndex: 2 }}>
          <ActionIcon variant="default" size="sm" aria-label="Drag to move" {...attributes} {...listeners}>
            <IconGripVertical size={14} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            size="sm"
            aria-label="Move up"
            disabled={props.index === 0}
            onClick={() => props.onMove(props.index - 1)}
          >
            <IconArrowUp size={14} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            size="sm"
            aria-label="Move down"
            disabled={props.index === props.count - 1}
            onClick={() => props.onMove(props.index + 1)}
          >
            <IconArrowDown size={14} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            size="sm"
            color="red"
            aria-label="Remove block"
            onClick={props.onRemove}
          >
            <IconTrash size={14} />
          </ActionIcon>
        </Group>
      ) : null}
      <BlockView block={block} design={props.design} />
    </div>
  );
}

const ALIGN = [
  { value: 'left', label: 'Left' },
  { value: 'center', label: 'Center' },
  { value: 'right', label: 'Right' },
];

function BlockPanel({
  block,
  onChange,
  readOnly,
}: {
  block: DesignBlock;
  onChange: (b: DesignBlock) => void;
  readOnly: boolean;
}) {
  const set = (patch: Partial<DesignBlock>) => onChange({ ...block, ...patch } as DesignBlock);
  switch (block.Type) {
    case 'heading':
      return (
        <Stack>
          <TextInput
            label="Heading text"
            value={block.Text}
            readOnly={readOnly}
            onChange={(e) => set({ Text: e.currentTarget.value })}
          />
          <SegmentedControl
            data={[
              { value: '1', label: 'Large' },
              { value: '2', label: 'Medium' },
            ]}
            value={String(block.Level)}
            onChange={(v) => set({ Level: v === '1' ? 1 : 2 })}
          />
          <SegmentedControl data={ALIGN} value={block.Align} onChange={(v) => set({ Align: v as 'left' })} />
        </Stack>
      );
    case 'text':
    case 'footer':
      return (
        <RichTextEditor
          key={block.Id}
          label={block.Type === 'footer' ? 'Footer text' : 'Text'}
          value={block.Html}
          onChange={(html) => set({ Html: html })}
          mergeContext={MERGE_CONTEXT}
          signatures
          readOnly={readOnly}
          minHeight={180}
        />
      );
    case 'columns':
      return (
        <Stack>
          {block.Columns.map((c, i) => (
            <RichTextEditor
              // biome-ignore lint/suspicious/noArrayIndexKey: two fixed columns
              key={`${block.Id}-${i}`}
              label={i === 0 ? 'Left column' : 'Right column'}
              value={c}
              onChange={(html) => {
                const cols: [string, string] = [...block.Columns];
                cols[i] = html;
                set({ Columns: cols });
              }}
              mergeContext={MERGE_CONTEXT}
              readOnly={readOnly}
              minHeight={120}
            />
          ))}
        </Stack>
      );
    case 'image':
      return (
        <Stack>
          <TextInput
            label="Image address"
            value={block.Src}
            readOnly={readOnly}
            onChange={(e) => set({ Src: e.currentTarget.value })}
          />
          <Group>
            <Button
              variant="default"
              size="xs"
              disabled={readOnly}
              onClick={async () => {
                const img = await openImageLibrary();
                if (img) set({ Src: img.src, Alt: block.Alt || img.alt });
              }}
            >
              Choose from the library
            </Button>
            <Button variant="default" size="xs" component="label" disabled={readOnly}>
              Upload
              <input
                type="file"
                accept="image/*"
                hidden
                onChange={async (e) => {
                  const file = e.currentTarget.files?.[0];
                  if (!file) return;
                  try {
                    set({ Src: await uploadEditorImage(file) });
                  } catch (err) {
                    notifyError(err);
                  }
                }}
              />
            </Button>
          </Group>
          <TextInput
            label="Alternative text"
            value={block.Alt}
            readOnly={readOnly}
            onChange={(e) => set({ Alt: e.currentTarget.value })}
          />
          <TextInput
            label="Link (optional)"
            value={block.Href ?? ''}
            readOnly={readOnly}
            onChange={(e) => set({ Href: e.currentTarget.value })}
          />
          <NumberInput
            label="Width in pixels (empty: full width)"
            min={20}
            max={800}
            value={block.Width ?? ''}
            onChange={(v) => set({ Width: typeof v === 'number' ? v : undefined })}
          />
          <SegmentedControl data={ALIGN} value={block.Align} onChange={(v) => set({ Align: v as 'left' })} />
        </Stack>
      );
    case 'button':
      return (
        <Stack>
          <TextInput
            label="Button text"
            value={block.Label}
            readOnly={readOnly}
            onChange={(e) => set({ Label: e.currentTarget.value })}
          />
          <TextInput
            label="Link"
            description="https://…, mailto:…, or merge:Mailing.PreferencesUrl"
            value={block.Href}
            readOnly={readOnly}
            onChange={(e) => set({ Href: e.currentTarget.value })}
          />
          <ColorInput
            label="Button colour"
            value={block.BackgroundColor}
            onChange={(v) => set({ BackgroundColor: v })}
            format="hex"
          />
          <ColorInput
            label="Text colour"
            value={block.Color}
            onChange={(v) => set({ Color: v })}
            format="hex"
          />
          <SegmentedControl data={ALIGN} value={block.Align} onChange={(v) => set({ Align: v as 'left' })} />
        </Stack>
      );
    case 'divider':
      return (
        <ColorInput
          label="Line colour"
          value={block.Color}
          onChange={(v) => set({ Color: v })}
          format="hex"
        />
      );
    case 'spacer':
      return (
        <NumberInput
          label="Height in pixels"
          min={4}
          max={200}
          value={block.Height}
          onChange={(v) => set({ Height: typeof v === 'number' ? v : 24 })}
        />
      );
  }
}

/** `/a/designer/{templates|mailings}/{id}`: the design of a template or of a draft mailing. */
export function DesignerPage() {
  const params = useParams();
  const target = params.target === 'mailings' ? 'mailings' : 'templates';
  const id = Number(params.id);
  const url = `/api/communication/designer/${target}/${id}`;
  const queryClient = useQueryClient();
  const loaded = useQuery({ queryKey: ['design', target, id], queryFn: () => api.get<DesignedMessage>(url) });
  const [design, setDesign] = useState<Design | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState<string | null>('design');
  const [previewHtml, setPreviewHtml] = useState<string>('');
  // A palette block picked up from the keyboard, and the place (a block index) it would land at.
  const [placing, setPlacing] = useState<{ type: DesignBlockType; at: number } | null>(null);
  useEffect(() => {
    if (!placing || !design) return;
    const count = design.Blocks.length;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowUp' || e.key === 'ArrowLeft')
        setPlacing({ ...placing, at: Math.max(0, placing.at - 1) });
      else if (e.key === 'ArrowDown' || e.key === 'ArrowRight')
        setPlacing({ ...placing, at: Math.min(count, placing.at + 1) });
      else if (e.key === 'Home') setPlacing({ ...placing, at: 0 });
      else if (e.key === 'End') setPlacing({ ...placing, at: count });
      else if (e.key === 'Enter' || e.key === ' ') {
        const block = newBlock(placing.type, nextBlockId(design));
        const blocks = [...design.Blocks];
        blocks.splice(placing.at, 0, block);
        setDesign({ ...design, Blocks: blocks });
        setDirty(true);
        setSelected(block.Id);
        setPlacing(null);
      } else if (e.key === 'Escape') setPlacing(null);
      else if (e.key === 'Tab') return setPlacing(null);
      else return;
      // Taken before the focused palette button or a dialog sees it (no click, no second block).
      e.preventDefault();
      e.stopPropagation();
    };
    const cancel = () => setPlacing(null);
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', cancel, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', cancel, true);
    };
  }, [placing, design]);
  useEffect(() => {
    if (loaded.data && !dirty) setDesign(loaded.data.DesignJson);
  }, [loaded.data, dirty]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  if (loaded.isPending || !design) return <LoadingBlock label="Loading the design" />;
  if (loaded.isError) return <ErrorBlock error={loaded.error} onRetry={() => void loaded.refetch()} />;
  // A sent or scheduled mailing's design is shown as it went out; nothing on the page changes it.
  const readOnly = loaded.data.ReadOnly === true;

  const change = (next: Design) => {
    setDesign(next);
    setDirty(true);
  };
  const insert = (block: DesignBlock) => {
    const at = selected ? design.Blocks.findIndex((b) => b.Id === selected) + 1 : design.Blocks.length;
    const blocks = [...design.Blocks];
    blocks.splice(at, 0, block);
    change({ ...design, Blocks: blocks });
    setSelected(block.Id);
  };
  const add = (type: DesignBlockType) => insert(newBlock(type, nextBlockId(design)));
  const addTool = async (tool: string) => {
    try {
      const res = await fetch(`/api/unlayercustomtools/${tool}`, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(res.statusText);
      insert({ Id: nextBlockId(design), Type: 'text', Html: await res.text() });
    } catch (e) {
      notifyError(e);
    }
  };
  const onDragEnd = (e: DragEndEvent) => {
    if (readOnly || !e.over) return;
    const dragged = String(e.active.id);
    if (dragged.startsWith(PALETTE_PREFIX)) {
      // From the palette: a new block just above the one it was dropped on, or at the end.
      const type = dragged.slice(PALETTE_PREFIX.length) as DesignBlockType;
      const over = design.Blocks.findIndex((b) => b.Id === e.over?.id);
      const at = over < 0 ? design.Blocks.length : over;
      const block = newBlock(type, nextBlockId(design));
      const blocks = [...design.Blocks];
      blocks.splice(at, 0, block);
      change({ ...design, Blocks: blocks });
      setSelected(block.Id);
      return;
    }
    if (e.active.id === e.over.id || e.over.id === CANVAS_END) return;
    const from = design.Blocks.findIndex((b) => b.Id === e.active.id);
    const to = design.Blocks.findIndex((b) => b.Id === e.over?.id);
    change({ ...design, Blocks: arrayMove(design.Blocks, from, to) });
  };
  const save = async () => {
    setSaving(true);
    try {
      const saved = await api.put<DesignedMessage>(url, { DesignJson: design });
      queryClient.setQueryData(['design', target, id], saved);
      setDirty(false);
      setPreviewHtml(saved.Html);
      await queryClient.invalidateQueries({ queryKey: ['mailing'] });
      notifySaved();
    } catch (e) {
      notifyError(e);
    } finally {
      setSaving(false);
    }
  };
  const preview = async () => {
    try {
      const r = await api.post<{ Html: string }>('/api/communication/designer/preview', {
        DesignJson: design,
        Subject: loaded.data.Subject,
      });
      setPreviewHtml(r.Html);
    } catch (e) {
      notifyError(e);
    }
  };
  const current = design.Blocks.find((b) => b.Id === selected) ?? null;
  const s = design.Settings;
  const setSettings = (patch: Partial<Design['Settings']>) =>
    change({ ...design, Settings: { ...s, ...patch } });

  return (
    <>
      <PageHeader
        title={`Design: ${loaded.data.Name}`}
        description={
          readOnly
            ? `Subject: ${loaded.data.Subject}.`
            : `Subject: ${loaded.data.Subject}. Add blocks (click or drag them onto the message), drag them into order, and edit the chosen one on the right.`
        }
        actions={
          <Group>
            {target === 'mailings' ? (
              <Button variant="default" component="a" href={`/a/mailings/${id}`}>
                Back to the mailing
              </Button>
            ) : null}
            {readOnly ? null : (
              <Button onClick={() => void save()} loading={saving} disabled={!dirty}>
                Save design
              </Button>
            )}
          </Group>
        }
      />
      {readOnly ? (
        <Alert color="gray" mb="md" title="Read-only">
          This mailing is no longer a draft: its design is shown as it was sent and cannot be changed.
        </Alert>
      ) : null}
      <Tabs
        value={tab}
        onChange={(v) => {
          setTab(v);
          if (v === 'preview') void preview();
        }}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="design">Design</Tabs.Tab>
          <Tabs.Tab value="preview">Preview</Tabs.Tab>
          <Tabs.Tab value="settings">Page</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="design">
          <DndContext sensors={sensors} collisionDetection={collisions} onDragEnd={onDragEnd}>
            <div style={{ display: 'grid', gridTemplateColumns: '180px minmax(0, 1fr) 380px', gap: 16 }}>
              <Stack gap="xs" aria-label="Blocks">
                <Text size="sm" fw={600}>
                  Add a block
                </Text>
                {PALETTE.map((p) => (
                  <PaletteBlock
                    key={p.type}
                    type={p.type}
                    label={p.label}
                    readOnly={readOnly}
                    onAdd={() => add(p.type)}
                    onPickUp={() =>
                      setPlacing({
                        type: p.type,
                        at: selected
                          ? design.Blocks.findIndex((b) => b.Id === selected) + 1
                          : design.Blocks.length,
                      })
                    }
                  />
                ))}
                <Text size="xs" c="dimmed" id={PALETTE_HINT_ID}>
                  From the keyboard: Enter adds a block after the chosen one; Space picks it up, the arrow
                  keys move it, Enter or Space drops it, Escape puts it back.
                </Text>
                <Text size="sm" aria-live="assertive" data-testid="design-placing-status">
                  {placing
                    ? `${BLOCK_LABEL[placing.type]}: place ${placing.at + 1} of ${design.Blocks.length + 1}.`
                    : ''}
                </Text>
                <Text size="sm" fw={600} mt="sm">
                  Content from your data
                </Text>
                {DESIGN_CUSTOM_TOOLS.map((t) => (
                  <Button
                    key={t.Id}
                    variant="light"
                    size="xs"
                    justify="start"
                    disabled={readOnly}
                    title={t.Description}
                    onClick={() => void addTool(t.Id)}
                  >
                    {t.Name}
                  </Button>
                ))}
              </Stack>
              <section
                style={{
                  background: s.BackgroundColor,
                  padding: 24,
                  borderRadius: 8,
                  fontFamily: DESIGN_FONTS.find((f) => f.Id === s.Font)?.Css,
                }}
                aria-label="Message canvas"
              >
                <div style={{ maxWidth: s.Width, margin: '0 auto', color: s.TextColor }}>
                  <SortableContext
                    items={design.Blocks.map((b) => b.Id)}
                    strategy={verticalListSortingStrategy}
                  >
                    {design.Blocks.map((b, i) => (
                      <Fragment key={b.Id}>
                        {placing?.at === i ? <PlacingLine /> : null}
                        <SortableBlock
                          block={b}
                          design={design}
                          index={i}
                          count={design.Blocks.length}
                          selected={b.Id === selected}
                          readOnly={readOnly}
                          onSelect={() => setSelected(b.Id)}
                          onMove={(to) => change({ ...design, Blocks: arrayMove(design.Blocks, i, to) })}
                          onRemove={async () => {
                            const ok = await confirmDialog({
                              title: 'Remove the block',
                              message: `Remove this ${BLOCK_LABEL[b.Type].toLowerCase()} block from the design? Its content is lost unless you leave without saving.`,
                              okLabel: 'Remove',
                              danger: true,
                            });
                            if (!ok) return;
                            setDesign((d) =>
                              d ? { ...d, Blocks: d.Blocks.filter((x) => x.Id !== b.Id) } : d,
                            );
                            setDirty(true);
                            setSelected(null);
                          }}
                        />
                      </Fragment>
                    ))}
                    {placing && placing.at === design.Blocks.length ? <PlacingLine /> : null}
                  </SortableContext>
                  {readOnly && design.Blocks.length > 0 ? null : (
                    <CanvasEnd empty={design.Blocks.length === 0} />
                  )}
                </div>
              </section>
              <Card withBorder aria-label="Block settings">
                {current ? (
                  <Stack>
                    <Text fw={600}>{BLOCK_LABEL[current.Type]}</Text>
                    <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
                      <BlockPanel
                        block={current}
                        readOnly={readOnly}
                        onChange={(b) =>
                          change({ ...design, Blocks: design.Blocks.map((x) => (x.Id === b.Id ? b : x)) })
                        }
                      />
                    </fieldset>
                  </Stack>
                ) : (
                  <Text c="dimmed" size="sm">
                    {readOnly
                      ? 'Choose a block on the canvas to see its settings.'
                      : 'Choose a block on the canvas to edit it.'}
                  </Text>
                )}
              </Card>
            </div>
          </DndContext>
        </Tabs.Panel>
        <Tabs.Panel value="preview">
          <Card withBorder p={0}>
            <iframe
              title="Preview of the designed message"
              sandbox=""
              srcDoc={previewHtml}
              style={{ width: '100%', height: 720, border: 0 }}
            />
          </Card>
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <Card withBorder maw={560}>
            <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
              <Stack>
                <TextInput
                  label="Preview text"
                  description="Shown by some mail programs after the subject"
                  value={s.Preheader}
                  onChange={(e) => setSettings({ Preheader: e.currentTarget.value })}
                />
                <Select
                  label="Font"
                  data={DESIGN_FONTS.map((f) => ({ value: f.Id, label: f.Name }))}
                  value={s.Font}
                  onChange={(v) => setSettings({ Font: (v ?? 'sans') as Design['Settings']['Font'] })}
                />
                <NumberInput
                  label="Width in pixels"
                  min={480}
                  max={800}
                  value={s.Width}
                  onChange={(v) => setSettings({ Width: typeof v === 'number' ? v : 600 })}
                />
                <ColorInput
                  label="Page background"
                  format="hex"
                  value={s.BackgroundColor}
                  onChange={(v) => setSettings({ BackgroundColor: v })}
                />
                <ColorInput
                  label="Message background"
                  format="hex"
                  value={s.ContentBackgroundColor}
                  onChange={(v) => setSettings({ ContentBackgroundColor: v })}
                />
                <ColorInput
                  label="Text colour"
                  format="hex"
                  value={s.TextColor}
                  onChange={(v) => setSettings({ TextColor: v })}
                />
                <ColorInput
                  label="Link colour"
                  format="hex"
                  value={s.LinkColor}
                  onChange={(v) => setSettings({ LinkColor: v })}
                />
              </Stack>
            </fieldset>
          </Card>
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
