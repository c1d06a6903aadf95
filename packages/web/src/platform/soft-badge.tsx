import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A light badge whose text is dark enough for WCAG AA (Mantine's light variant text is not, on small caps). */
export function SoftBadge({
  color = 'guild',
  children,
  ...rest
}: BadgeProps & { color?: string; children: ReactNode }) {
  return (
    <Badge
      variant="light"
      color={color}
      c={`color-mix(in srgb, var(--mantine-color-${color}-9), black 40%)`}
      {...rest}
    >
      {children}
    </Badge>
  );
}
