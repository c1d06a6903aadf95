/**
 * The image reorder dialog (spec 000, spec 001 section 2): 75x75 thumbnails in their order, dragged with a mouse or
 * a finger, or moved with the keyboard (focus a thumbnail, Space to lift it, arrows to move it, Space to drop it);
 * @dnd-kit/sortable announces each move to screen readers. Saving sends the new order.
 */

import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IMAGE_THUMBNAIL_SIZE, type Image } from '@guildhall/shared';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { notifyError } from '../../platform/notify.ts';
import { filesApi } from './files-api.ts';

function Thumbnail({ image, index }: { image: Image; index: number }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: image.ImageId,
  });
  const label = image.ShortDescription || image.Title || image.Name;
  return (
    <li
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      aria-label={`${label}, position ${index + 1}`}
      data-testid="reorder-thumbnail"
      data-image-id={image.ImageId}
      style={{
        listStyle: 'none',
        width: IMAGE_THUMBNAIL_SIZE,
        height: IMAGE_THUMBNAIL_SIZE,
        transform: CSS.Transform.toString(transform),
        transition,
        cursor: 'grab',
        opacity: isDragging ? 0.6 : 1,
        borderRadius: 4,
        outlineOffset: 2,
        touchAction: 'none',
      }}
    >
      <img
        src={image.ThumbnailUrl ?? image.Url ?? ''}
        alt={label}
        width={IMAGE_THUMBNAIL_SIZE}
        height={IMAGE_THUMBNAIL_SIZE}
        style={{ objectFit: 'cover', borderRadius: 4, display: 'block' }}
        draggable={false}
      />
    </li>
  );
}

export function ImageReorderDialog(props: {
  opened: boolean;
  usageId: number;
  sourceId: number | null;
  images: Image[];
  onClose: (saved: Image[] | null) => void;
}) {
  const [order, setOrder] = useState(props.images);
  const [saving, setSaving] = useState(false);
  useEffect(() => setOrder(props.images), [props.images]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    setOrder((items) => {
      const from = items.findIndex((i) => i.ImageId === active.id);
      const to = items.findIndex((i) => i.ImageId === over.id);
      return arrayMove(items, from, to);
    });
  }
  async function save() {
    setSaving(true);
    try {
      const answer = await filesApi.reorder(
        props.usageId,
        props.sourceId,
        order.map((i) => i.ImageId),
      );
      props.onClose(answer.Images);
    } catch (error) {
      notifyError(error);
    } finally {
      setSaving(false);
    }
  }
  return (
    <Modal opened={props.opened} onClose={() => props.onClose(null)} title="Reorder images" size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          Drag the images into their order, or focus one, press Space, move it with the arrow keys and press
          Space again.
        </Text>
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={order.map((i) => i.ImageId)} strategy={rectSortingStrategy}>
            <ul
              aria-label="Images in their order"
              style={{ display: 'flex', flexWrap: 'wrap', gap: 8, padding: 0, margin: 0 }}
            >
              {order.map((image, index) => (
                <Thumbnail key={image.ImageId} image={image} index={index} />
              ))}
            </ul>
          </SortableContext>
        </DndContext>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => props.onClose(null)}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={saving}>
            Save order
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
