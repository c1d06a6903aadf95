/**
 * The shipped queries' start-up check in a thread of its own (query-check.ts): answers once, then ends, and so does
 * the parser's process it started (query-parser.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type CheckedQuery, checkDeclarations } from './query-check.ts';
import { stopParser } from './query-parser.ts';

try {
  await checkDeclarations(workerData as CheckedQuery[]);
  parentPort?.postMessage({ ok: true });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: (error as Error).message });
} finally {
  stopParser();
}
