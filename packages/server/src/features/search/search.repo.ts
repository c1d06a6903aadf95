/**
 * The global search query over `search_documents`. Candidates come from two bounded index scans (the folded title
 * by prefix through the btree, and every word as a substring through the trigram index), then a typo pass by
 * trigram word similarity when few were found; candidates are ranked exact title, title prefix, whole word,
 * substring, typo, then by similarity.
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
  const prefix = `${likeEscape(q)}%`;
  const branches: SQL[] = [
    sql`(select d.entity_type, d.entity_id from search_documents d
          where ${scope} and d.title_key like ${prefix} order by d.title_key limit ${SEARCH_LIMIT})`,
  ];
  // Trigrams need three characters; shorter words match title prefixes only.
  const long = terms.filter((t) => t.length >= 3);
  if (long.length > 0) {
    const all = sql.join(
      terms.map((t) => sql`d.search_text like ${`%${likeEscape(t)}%`}`),
      sql` and `,
    );
    branches.push(
      sql`(select d.entity_type, d.entity_id from search_documents d where ${scope} and ${all} limit ${SUBSTRING_CANDIDATES})`,
    );
  }
  const ranked = (candidates: SQL, typo: boolean) => sql`
    select d.entity_type, d.entity_id, d.title, d.facets from (${candidates}) c
      join search_documents d on d.tenant_id = ${tenantId} and d.audience = ${audience}
                             and d.entity_type = c.entity_type and d.entity_id = c.entity_id
     order by case when d.title_key = ${q} then 5
                   when d.title_key like ${prefix} then 4
                   when to_tsvector('simple', d.search_text) @@ plainto_tsquery('simple', ${q}) then 3
                   when ${typo ? sql`false` : sql`true`} then 2 else 1 end desc,
              word_similarity(${q}, d.title_key) desc, d.title_key, d.entity_id
     limit ${SEARCH_LIMIT}`;
  const rows = rowsOf<SearchRow>(await tx.execute(ranked(sql.join(branches, sql` union `), false)));
  // Identifiers (digits, emails) are not fuzzy-matched: a near account number is another contact.
  if (rows.length >= SEARCH_LIMIT / 2 || q.length < TYPO_MIN_LENGTH || /[\d@]/.test(q)) return rows;
  // Few hits: allow small typos (trigram word similarity, through the same trigram index).
  const typos = rowsOf<SearchRow>(
    await tx.execute(
      ranked(
        sql`(select d.entity_type, d.entity_id from search_documents d
              where ${scope} and ${q} <% d.search_text limit ${SUBSTRING_CANDIDATES})`,
        true,
      ),
    ),
  );
  const seen = new Set(rows.map((r) => `${r.entity_type}:${r.entity_id}`));
  return [...rows, ...typos.filter((r) => !seen.has(`${r.entity_type}:${r.entity_id}`))].slice(
    0,
    SEARCH_LIMIT,
  );
}
