/**
 * Stored rich text shown as HTML (a signature's preview, a message's preview): always through DOMPurify first, so
 * nothing the server's allow-list might have missed runs here (decision 0150).
 */
import DOMPurify from 'dompurify';
import { type CSSProperties, useLayoutEffect, useRef } from 'react';

/** Stored HTML as the browser accepts it: DOMPurify keeps the chips' data attributes. */
export function purify(html: string): string {
  return DOMPurify.sanitize(html, { ADD_ATTR: ['data-merge-field', 'data-merge-params', 'target'] });
}

export function SafeHtml({
  html,
  className,
  style,
}: {
  html: string;
  className?: string;
  style?: CSSProperties;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.innerHTML = purify(html);
  }, [html]);
  return <div ref={ref} className={className} style={style} />;
}
