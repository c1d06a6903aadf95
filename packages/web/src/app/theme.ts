import {
  type CSSVariablesResolver,
  createTheme,
  Drawer,
  type MantineColorsTuple,
  Modal,
  Notification,
} from '@mantine/core';

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
    // Dropdowns open above dialogs too (dialogs stack from z-index 1050, spec 001 section 9).
    Select: { defaultProps: { comboboxProps: { zIndex: 1400 } } },
    MultiSelect: { defaultProps: { comboboxProps: { zIndex: 1400 } } },
    Tooltip: { defaultProps: { zIndex: 1500 } },
    Popover: { defaultProps: { zIndex: 1400 } },
    Menu: { defaultProps: { zIndex: 1400 } },
    // Every close button (dialogs, drawers, notifications) gets a name for screen readers.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
    }),
  },
});

/**
 * Mantine's "dimmed" grey (gray.6 on white, 3.3:1) fails WCAG AA for small text; gray.7 passes (7:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057' },
  dark: {},
});
