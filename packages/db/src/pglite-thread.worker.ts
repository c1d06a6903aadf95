/**
 * The worker thread that runs embedded PGlite (decision 0085). It owns the engine and answers the main thread's
 * requests one at a time, in the order they came: protocol messages in, the backend's answer out as bytes
 * (transferred, not copied). The main thread decides what runs when (transactions, locks) and reads the answers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export interface PgliteThreadOptions {
  dataDir?: string | undefined;
  /** A dumped data folder (tar) to start from. */
  loadDataDir?: ArrayBuffer | undefined;
  /** Server settings, `name=value` each (PostgreSQL's `-c`). */
  settings?: readonly string[] | undefined;
  /** The engine's initial WebAssembly memory, in bytes. */
  initialMemory?: number | undefined;
}

export type PgliteThreadRequest =
  | { id: number; op: 'protocol'; message: Uint8Array }
  | { id: number; op: 'copyFrom'; text: string; data: ArrayBuffer }
  | { id: number; op: 'dump' }
  | { id: number; op: 'memory' }
  | { id: number; op: 'close' };

export type PgliteThreadAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; fields: Record<string, unknown> } };

const port = parentPort;
if (!port) throw new Error('The PGlite worker runs in a worker thread.');
const options = workerData as PgliteThreadOptions;

const pglite = new PGlite({
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
  ...(options.initialMemory ? { initialMemory: options.initialMemory } : {}),
  ...(options.settings?.length ? { startParams: startParams(options.settings) } : {}),
  extensions: { pg_trgm },
});

/** PGlite's default start parameters with the settings added (`-c name=value`). */
function startParams(settings: readonly string[]): string[] {
  const base = (PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams;
  return [...base, ...settings.flatMap((s) => ['-c', s])];
}

async function answer(request: PgliteThreadRequest): Promise<{ value: unknown; transfer: ArrayBuffer[] }> {
  switch (request.op) {
    case 'protocol': {
      const chunks: Uint8Array[] = [];
      let length = 0;
      await pglite._runExclusiveQuery(() =>
        pglite.execProtocolRawStream(request.message, {
          syncToFs: false,
          // A chunk is a view of the engine's memory, valid only during the callback.
          onRawData: (chunk: Uint8Array) => {
            chunks.push(chunk.slice());
            length += chunk.length;
          },
        }),
      );
      let out: Uint8Array;
      if (chunks.length === 1) out = chunks[0] as Uint8Array;
      else {
        out = new Uint8Array(length);
        let at = 0;
        for (const c of chunks) {
          out.set(c, at);
          at += c.length;
        }
      }
      return { value: out, transfer: [out.buffer as ArrayBuffer] };
    }
    case 'copyFrom': {
      const result = await pglite.query(request.text, [], { blob: new Blob([request.data]) });
      return { value: result.affectedRows ?? 0, transfer: [] };
    }
    case 'dump': {
      const file = await pglite.dumpDataDir('none');
      const bytes = await file.arrayBuffer();
      return { value: bytes, transfer: [bytes] };
    }
    case 'memory': {
      const heap = (pglite as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8;
      return { value: { wasmBytes: heap?.byteLength ?? 0 }, transfer: [] };
    }
    case 'close': {
      await pglite.close();
      return { value: null, transfer: [] };
    }
  }
}

function errorOf(error: unknown): { message: string; fields: Record<string, unknown> } {
  const fields: Record<string, unknown> = {};
  if (error && typeof error === 'object')
    for (const [k, v] of Object.entries(error))
      if (typeof v !== 'object' && typeof v !== 'function') fields[k] = v;
  return { message: error instanceof Error ? error.message : String(error), fields };
}

// One request at a time, in order: the engine is single-threaded, and the main thread's order is the contract.
let queue: Promise<void> = pglite.waitReady.then(
  () => port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies PgliteThreadAnswer),
  (error: unknown) =>
    port.postMessage({ id: 0, ok: false, error: errorOf(error) } satisfies PgliteThreadAnswer),
);

port.on('message', (request: PgliteThreadRequest) => {
  queue = queue.then(async () => {
    try {
      const { value, transfer } = await answer(request);
      port.postMessage({ id: request.id, ok: true, value } satisfies PgliteThreadAnswer, transfer);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, error: errorOf(error) } satisfies PgliteThreadAnswer);
    }
  });
});
