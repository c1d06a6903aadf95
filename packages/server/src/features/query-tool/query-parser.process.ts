/**
 * PostgreSQL's parser (libpg-query, WebAssembly) in a process of its own, started by query-parser.ts with
 * `--liftoff-only`: answers `{id, tree}` or `{id, error}` for each `{id, sql}`, and ends with its parent.
 */
import { parse } from 'libpg-query';

process.on('message', async (message: { id: number; sql: string }) => {
  try {
    process.send?.({ id: message.id, tree: await parse(message.sql) });
  } catch (error) {
    process.send?.({ id: message.id, error: (error as Error).message });
  }
});
process.on('disconnect', () => process.exit(0));
