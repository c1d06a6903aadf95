import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePillLayout } from './text-mode.tsx';

/**
 * A light badge whose text is dark enough for WCAG AA (Mantine's light variant text is not, on small caps). Drawn in
 * a list cell, it is cut, wrapped or whole as the column's mode says.
 */
export function SoftBadge({
  color = 'guild',
  children,
  ...rest
}: BadgeProps & { color?: string; children: ReactNode }) {
  const layout = usePillLayout();
  return (
    <Badge
      variant="light"
      color={color}
      c={`color-mix(in srgb, var(--mantine-color-${color}-9), black 40%)`}
      {...layout}
      {...rest}
    >
      {children}
    </Badge>
  );
}
