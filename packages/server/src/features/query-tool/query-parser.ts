/**
 * The guard's parser (decision 0170 amended): PostgreSQL's own, in WebAssembly (libpg-query), run in a small process
 * of its own whose V8 only uses its baseline WebAssembly compiler (`--liftoff-only`).
 *
 * In the server's own process, V8 recompiles the parser's hottest functions with its optimizing compiler in the
 * background after the first queries, and the parser's grammar function is so large that that compilation held up to
 * 1.2 GB (heaptrack: a Turboshaft zone in LoopUnrollingPhase of a WebAssembly function) for tens of seconds: the
 * server's memory during the first downloads after a start grew by hundreds of MB whatever their rows. The flag is
 * process-wide and cannot be set at run time, and embedded PGlite (WebAssembly too, in the server's process) needs
 * the optimizing compiler (its queries ran 2.5x slower without it), hence the separate process. A parse answers in
 * about a millisecond there; the process starts with the first query and stops after five idle minutes.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { moduleUrl } from '../../platform/module-files.ts';

interface Waiting {
  resolve(tree: unknown): void;
  reject(error: Error): void;
}

const IDLE_MS = 5 * 60_000;

let child: ChildProcess | undefined;
let nextId = 0;
const waiting = new Map<number, Waiting>();
let idle: NodeJS.Timeout | undefined;

function parser(): ChildProcess {
  if (child?.connected) return child;
  const started = fork(moduleUrl('./query-parser.process', import.meta.url), [], {
    execArgv: ['--liftoff-only', '--max-semi-space-size=1'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  started.on('message', (answer: { id: number; tree?: unknown; error?: string }) => {
    const w = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (waiting.size === 0) started.channel?.unref();
    if (!w) return;
    if (answer.error !== undefined) w.reject(new Error(answer.error));
    else w.resolve(answer.tree);
  });
  started.on('exit', () => {
    if (child === started) child = undefined;
    for (const w of waiting.values()) w.reject(new Error('The query parser stopped.'));
    waiting.clear();
  });
  started.on('error', () => undefined); // answered by 'exit'
  // Neither the process nor its channel keeps the server's event loop alive (a pending parse refs the channel).
  started.unref();
  started.channel?.unref();
  child = started;
  return started;
}

/** The parse tree of `sql` (libpg-query's JSON), or the parser's error. */
export function parseSql(sql: string): Promise<unknown> {
  const process = parser();
  clearTimeout(idle);
  idle = setTimeout(() => process.disconnect(), IDLE_MS).unref();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    process.channel?.ref();
    process.send({ id, sql }, (error) => {
      if (!error) return;
      waiting.delete(id);
      reject(error);
    });
  });
}

/** Stops the parser's process now (the start-up check's thread, once it is done), not after the idle time. */
export function stopParser(): void {
  clearTimeout(idle);
  if (child?.connected) child.disconnect();
}
