/**
 * The worker thread that runs embedded PGlite (decision 0085). Plain JavaScript: a TypeScript entry would load
 * Node's type stripper into this thread too (about 26 MiB, decision 0086); the messages' types are in
 * pglite-thread.ts. It owns the engine and answers the main thread's requests one at a time, in the order they came: protocol messages in, the backend's answer out as bytes
 * (transferred, not copied). The main thread decides what runs when (transactions, locks) and reads the answers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const port = parentPort;
if (!port) throw new Error('The PGlite worker runs in a worker thread.');
/** @type {import('./pglite-thread.ts').PgliteThreadOptions} */
const options = workerData;

const pglite = new PGlite({
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
  ...(options.initialMemory ? { initialMemory: options.initialMemory } : {}),
  ...(options.settings?.length ? { startParams: startParams(options.settings) } : {}),
  extensions: { pg_trgm },
});

/**
 * PGlite's default start parameters with the settings added (`-c name=value`).
 * @param {readonly string[]} settings
 */
function startParams(settings) {
  const base = PGlite.defaultStartParams;
  return [...base, ...settings.flatMap((s) => ['-c', s])];
}

/** @param {import('./pglite-thread.ts').PgliteThreadRequest} request */
async function answer(request) {
  switch (request.op) {
    case 'protocol': {
      /** @type {Uint8Array[]} */
      const chunks = [];
      let length = 0;
      await pglite._runExclusiveQuery(() =>
        pglite.execProtocolRawStream(request.message, {
          syncToFs: false,
          // A chunk is a view of the engine's memory, valid only during the callback.
          onRawData: (chunk) => {
            chunks.push(chunk.slice());
            length += chunk.length;
          },
        }),
      );
      let out;
      if (chunks.length === 1) out = chunks[0];
      else {
        out = new Uint8Array(length);
        let at = 0;
        for (const c of chunks) {
          out.set(c, at);
          at += c.length;
        }
      }
      return { value: out, transfer: [out.buffer] };
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
      const heap = pglite.mod?.HEAPU8;
      return { value: { wasmBytes: heap?.byteLength ?? 0 }, transfer: [] };
    }
    case 'close': {
      await pglite.close();
      return { value: null, transfer: [] };
    }
  }
}

/** @param {unknown} error */
function errorOf(error) {
  /** @type {Record<string, unknown>} */
  const fields = {};
  if (error && typeof error === 'object')
    for (const [k, v] of Object.entries(error))
      if (typeof v !== 'object' && typeof v !== 'function') fields[k] = v;
  return { message: error instanceof Error ? error.message : String(error), fields };
}

// One request at a time, in order: the engine is single-threaded, and the main thread's order is the contract.
let queue = pglite.waitReady.then(
  () => port.postMessage({ id: 0, ok: true, value: 'ready' }),
  (error) => port.postMessage({ id: 0, ok: false, error: errorOf(error) }),
);

port.on('message', (request) => {
  queue = queue.then(async () => {
    try {
      const { value, transfer } = await answer(request);
      port.postMessage({ id: request.id, ok: true, value }, transfer);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, error: errorOf(error) });
    }
  });
});
