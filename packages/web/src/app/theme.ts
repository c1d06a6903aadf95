import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Guildhall blue, dark enough for white text to pass WCAG AA at shade 7. */
const guild: MantineColorsTuple = [
  '#e9f2fb',
  '#d2e2f3',
  '#a3c3e6',
  '#70a2da',
  '#4886cf',
  '#2f74c9',
  '#2169b4',
  '#1c5a9c',
  '#154a82',
  '#0b3d6d',
];

export const theme = createTheme({
  primaryColor: 'guild',
  primaryShade: 7,
  colors: { guild },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  focusRing: 'auto',
  cursorType: 'pointer',
  components: {
    TextInput: { defaultProps: { size: 'sm' } },
  },
});
