/**
 * The guard's checks of SQL (decision 0170): one query's SQL, and the shipped declarations at start-up, where a
 * query the guard refuses stops the start, naming it.
 *
 * The start-up check runs in a worker thread of its own that ends when it is done (decision 0086), and parses
 * through the parser's process (query-parser.ts, decision 0185), which it stops at its end: PostgreSQL's parser is
 * WebAssembly whose memory, once it has parsed the shipped queries, keeps about 90 MiB resident, and whose grammar
 * function V8 recompiles in the background with its optimizing compiler (about 600 MB for tens of seconds, decision
 * 0191) in a process without `--liftoff-only`. A server whose association never opens the query tool should not
 * carry it; the first query run or saved starts the parser's process again.
 */
import { Worker } from 'node:worker_threads';
import type { QueryDeclaration } from '@guildhall/shared/query-tool/query';
import {
  numberedSql,
  queryDeclarationProblems,
  splitPlaceholders,
} from '@guildhall/shared/query-tool/query-tool.rules';
import { moduleUrl } from '../../platform/module-files.ts';
import { guardQuery } from './query-guard.ts';

/** Refuses (QueryRefused) SQL that is not one plain SELECT over the query views. */
export async function checkSql(sql: string): Promise<void> {
  const split = splitPlaceholders(sql);
  await guardQuery(numberedSql(split), split.names.length);
}

/** What the check needs of a declaration (plain data, sent to the worker). */
export type CheckedQuery = Pick<QueryDeclaration, 'name' | 'sql' | 'parameters'>;

/** Checks the declarations in this thread: throws naming the first query refused. */
export async function checkDeclarations(queries: readonly CheckedQuery[]): Promise<void> {
  const names = new Set<string>();
  for (const query of queries) {
    if (names.has(query.name)) throw new Error(`Two queries are named ${query.name}`);
    names.add(query.name);
    const problems = queryDeclarationProblems(query);
    if (problems.length) throw new Error(`Query ${query.name}: ${problems.join(' ')}`);
    try {
      await checkSql(query.sql);
      for (const p of query.parameters) if (p.lookup) await checkSql(p.lookup);
    } catch (error) {
      throw new Error(`Query ${query.name}: ${(error as Error).message}`);
    }
  }
}

/** The same declarations are checked once per process (the tests build many apps). */
const checked = new Map<string, Promise<void>>();

/** Checks the shipped declarations in a worker thread that ends with the check (see above). */
export function checkDeclarationsApart(queries: readonly QueryDeclaration[]): Promise<void> {
  const plain: CheckedQuery[] = JSON.parse(
    JSON.stringify(queries.map((q) => ({ name: q.name, sql: q.sql, parameters: q.parameters }))),
  );
  const key = JSON.stringify(plain);
  let done = checked.get(key);
  if (!done) {
    done = new Promise<void>((resolve, reject) => {
      const worker = new Worker(moduleUrl('./query-check.worker', import.meta.url), { workerData: plain });
      let answered = false;
      worker.once('message', (answer: { ok: true } | { ok: false; message: string }) => {
        answered = true;
        if (answer.ok) resolve();
        else reject(new Error(answer.message));
      });
      worker.once('error', (error) => {
        answered = true;
        reject(error);
      });
      worker.once('exit', (code) => {
        if (!answered) reject(new Error(`The query check's thread ended (${code}) without an answer`));
      });
    });
    checked.set(key, done);
  }
  return done;
}
