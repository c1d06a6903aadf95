/** The association's logo in the header, when it has one (set in settings). */
import { IMAGE_USAGE } from '@guildhall/shared';
import { useUsageImage } from './image-slot.tsx';

export default function HeaderLogo({ name }: { name: string }) {
  const usage = useUsageImage(IMAGE_USAGE.Logo, null);
  const image = usage.data?.Images[0];
  if (!image?.Url) return null;
  return (
    <img
      src={image.Url}
      alt={image.ShortDescription || `${name} logo`}
      style={{ height: 32, maxWidth: 160, objectFit: 'contain', display: 'block' }}
      data-testid="header-logo"
    />
  );
}
