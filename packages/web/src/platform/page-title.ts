import { useEffect } from 'react';

const PRODUCT = 'Guildhall';

/** Sets the document title, the first thing a screen reader announces after navigation. */
export function usePageTitle(title: string, context?: string): void {
  useEffect(() => {
    document.title = [title, context, PRODUCT].filter(Boolean).join(' · ');
  }, [title, context]);
}
