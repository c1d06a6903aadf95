/**
 * The global search query over `search_documents`. Candidates come from bounded index scans: the folded title by
 * prefix (btree), every word as a substring of the title (title trigram index) and of the whole search text
 * (trigram index), then a typo pass by trigram word similarity on the title when few were found. Candidates are
 * ranked exact title, title prefix, a title word starting with the query, a whole word anywhere, a substring of
 * the title, a substring anywhere, a typo; then by similarity. When twenty titles start with the query, the btree
 * answers alone. LIKE and word similarity are LEAKPROOF (migration
 * 0009), so these conditions use their indexes under row-level security (decision 0041).
 * The typo pass turns sequential scans off for the rest of the caller's transaction: run the search last in it.
 */
import { rowsOf, type Tx } from '@guildhall/db';
import { SEARCH_LIMIT, type SearchAudience } from '@guildhall/shared';
import { type SQL, sql } from 'drizzle-orm';

export interface SearchRow {
  entity_type: string;
  entity_id: string;
  title: string;
  facets: Record<string, string | null>;
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const SUBSTRING_CANDIDATES = 200;
const TYPO_MIN_LENGTH = 4;

export async function searchDocuments(
  tx: Tx,
  tenantId: string,
  audience: SearchAudience,
  terms: readonly string[],
): Promise<SearchRow[]> {
  const q = terms.join(' ');
  const scope = sql`d.tenant_id = ${tenantId} and d.audience = ${audience}`;
  const columns = sql`d.entity_type, d.entity_id, d.title, d.title_key, d.search_text, d.facets`;
  const prefix = `${likeEscape(q)}%`;
  const all = (column: SQL) =>
    sql.join(
      terms.map((t) => sql`${column} like ${`%${likeEscape(t)}%`}`),
      sql` and `,
    );
  const byPrefix = sql`(select ${columns} from search_documents d
    where ${scope} and d.title_key like ${prefix} order by d.title_key using ~<~ limit ${SEARCH_LIMIT})`;
  // Names first: the title's candidates are not crowded out by emails or cities that contain the same word.
  const inTitle = sql`(select ${columns} from search_documents d
    where ${scope} and ${all(sql`d.title_key`)} limit ${SUBSTRING_CANDIDATES})`;
  const inText = sql`(select ${columns} from search_documents d
    where ${scope} and ${all(sql`d.search_text`)} limit ${SUBSTRING_CANDIDATES})`;
  // Every term a whole word somewhere (the folded text separates words by single spaces): cheap on candidates.
  const wholeWords = sql.join(
    terms.map((t) => sql`(' ' || c.search_text || ' ') like ${`% ${likeEscape(t)} %`}`),
    sql` and `,
  );
  const ranked = async (branches: SQL[], typo: boolean) =>
    rowsOf<SearchRow & { rank: number }>(
      await tx.execute(sql`
        select c.entity_type, c.entity_id, c.title, c.facets,
               case when c.title_key = ${q} then 7
                    when c.title_key like ${prefix} then 6
                    when c.title_key like ${`% ${likeEscape(q)}%`} then 5
                    when ${wholeWords} then 4
                    when ${all(sql`c.title_key`)} then 3
                    when ${typo ? sql`false` : sql`true`} then 2 else 1 end as rank
          from (select distinct on (c.entity_type, c.entity_id) c.*
                  from (${sql.join(branches, sql` union all `)}) c) c
         order by rank desc, word_similarity(${q}, c.title_key) desc, c.title_key, c.entity_id
         limit ${SEARCH_LIMIT}`),
    ).map(({ rank, ...row }) => ({ ...row, rank: Number(rank) }));
  const answer = (rows: (SearchRow & { rank: number })[]) => rows.map(({ rank: _r, ...row }) => row);
  // Trigrams need three characters; shorter words match title prefixes only.
  if (!terms.some((t) => t.length >= 3)) return answer(await ranked([byPrefix], false));
  // Twenty titles start with the query (a common first name or prefix): they are the answer, from the btree (read
  // in its own order, `~<~` of text_pattern_ops, so the scan stops after twenty).
  const first = await ranked([byPrefix], false);
  if (first.length >= SEARCH_LIMIT) return answer(first);
  // Twenty titles have a word starting with the query: nothing found elsewhere could rank above them.
  const named = await ranked([byPrefix, inTitle], false);
  if (named.length >= SEARCH_LIMIT && named.every((r) => r.rank >= 5)) return answer(named);
  const rows = answer(await ranked([byPrefix, inTitle, inText], false));
  // Identifiers (digits, emails) are not fuzzy-matched: a near account number is another contact.
  if (rows.length >= SEARCH_LIMIT / 2 || q.length < TYPO_MIN_LENGTH || /[\d@]/.test(q)) return rows;
  // Few hits: allow small typos in the name (trigram word similarity, through the title's trigram index). With its
  // LIMIT the planner sometimes prefers a sequential scan, expecting a typo's 2% of matches evenly spread; found
  // scattered, they took 50-70 ms to collect that way instead of 2-10 ms through the index (which plan it picked
  // changed with ANALYZE's random sample). The scan is refused for this statement's transaction only.
  await tx.execute(sql`select set_config('enable_seqscan', 'off', true)`);
  const typos = answer(
    await ranked(
      [
        sql`(select ${columns} from search_documents d
              where ${scope} and ${q} <% d.title_key limit ${SUBSTRING_CANDIDATES})`,
      ],
      true,
    ),
  );
  const seen = new Set(rows.map((r) => `${r.entity_type}:${r.entity_id}`));
  return [...rows, ...typos.filter((r) => !seen.has(`${r.entity_type}:${r.entity_id}`))].slice(
    0,
    SEARCH_LIMIT,
  );
}
