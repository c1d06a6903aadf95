/**
 * The server's own module files as they run: `.ts` from the sources (development and tests strip the types), `.js`
 * once compiled (`npm start` runs `dist/`, decision 0191). Whatever names a module file at run time (a worker, a
 * forked process, the declarations discovered by their names) takes this extension.
 */
import { extname } from 'node:path';

export const MODULE_EXTENSION = extname(new URL(import.meta.url).pathname);

/** The module `name` (without extension) relative to `base` (the caller's `import.meta.url`). */
export function moduleUrl(name: string, base: string): URL {
  return new URL(`${name}${MODULE_EXTENSION}`, base);
}
