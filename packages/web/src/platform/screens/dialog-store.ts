import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';

/** One open dialog: its content renders with a `close` that settles the promise of whoever opened it. */
export interface OpenDialog {
  id: number;
  render: (close: (result?: unknown) => void) => ReactNode;
  settle: (result: unknown) => void;
}

let stack: OpenDialog[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

/** Opens a dialog above the others (z-index 1050 + 10 per index); resolves with what it closed with. */
export function openDialog<T>(render: (close: (result?: T) => void) => ReactNode): Promise<T | undefined> {
  return new Promise((resolve) => {
    const id = nextId++;
    const dialog: OpenDialog = {
      id,
      render: (close) => render(close as (result?: T) => void),
      settle: (result) => {
        stack = stack.filter((d) => d.id !== id);
        emit();
        resolve(result as T | undefined);
      },
    };
    stack = [...stack, dialog];
    emit();
  });
}

export function closeAllDialogs(): void {
  for (const d of [...stack]) d.settle(undefined);
}

export function useDialogStack(): OpenDialog[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => stack,
  );
}
