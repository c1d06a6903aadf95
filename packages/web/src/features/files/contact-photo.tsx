/** A contact's photo on the record (staff change it) and in the member directory (shown only). */
import { IMAGE_USAGE } from '@guildhall/shared';
import { ImageSlot } from './image-slot.tsx';

export default function ContactPhoto({ recordId, readOnly }: { recordId: string; readOnly?: boolean }) {
  return (
    <ImageSlot
      usageId={IMAGE_USAGE.ContactPhoto}
      sourceId={Number(recordId)}
      label="Photo"
      size={88}
      round
      readOnly={readOnly ?? false}
    />
  );
}
