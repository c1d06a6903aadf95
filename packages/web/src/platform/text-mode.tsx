import type { BadgeProps } from '@mantine/core';
import { createContext, type ReactNode, useContext } from 'react';

/**
 * How long text shows where it is drawn (a list column's `mode`, decision 0186): 0 cut (one line, ellipsis within
 * the cell), 1 wrap (as many lines as the cell's width needs), 2 whole (one line, never cut).
 */
export type TextMode = 0 | 1 | 2;

const TextModeContext = createContext<TextMode | null>(null);

/** The mode of the cell a renderer draws in: every pill or box inside it reads it (`useTextMode`). */
export function TextModeProvider({ mode, children }: { mode: TextMode; children: ReactNode }) {
  return <TextModeContext.Provider value={mode}>{children}</TextModeContext.Provider>;
}

/** The mode of the list cell around, or null outside a list (a record's card, a form: the text shows whole). */
export function useTextMode(): TextMode | null {
  return useContext(TextModeContext);
}

type PillLayout = Pick<BadgeProps, 'styles' | 'miw' | 'maw'>;

/**
 * A badge's box by the mode of the cell it is drawn in. Whole: at least as wide as its text (in a table laid out
 * automatically a badge was squeezed to "OR…"). Cut: as wide as its text up to the cell's width, ellipsised past it.
 * Wrap: its text wraps inside the badge, which grows in height and stays within the cell. None: Mantine's own.
 */
export function pillLayout(mode: TextMode | null): PillLayout {
  switch (mode) {
    case null:
      return {};
    case 0:
      return { maw: '100%', styles: { root: { width: 'max-content' } } };
    case 1:
      return {
        maw: '100%',
        styles: {
          root: {
            height: 'auto',
            minHeight: 'var(--badge-height)',
            lineHeight: 1.35,
            paddingBlock: 2,
          },
          label: {
            whiteSpace: 'normal',
            overflowWrap: 'break-word',
            textOverflow: 'clip',
            textAlign: 'start',
          },
        },
      };
    case 2:
      return { miw: 'max-content' };
  }
}

/** The layout of a badge drawn here: by the mode of the list cell around it, or `outside` when there is none. */
export function usePillLayout(outside: TextMode | null = null): PillLayout {
  return pillLayout(useTextMode() ?? outside);
}
