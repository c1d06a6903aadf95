/**
 * The list search box of a `large` resource without a search index of its own (decision 0102): every word typed
 * must appear in the resource's search fields joined, read through the trigram index the schema derives for them
 * (`listSearchIndex`), so the search box answers within the list bar at any size. The plan is the same one a
 * feature's own index gives (`SearchIndexPlan`): the matching keys, and the share of the tenant's rows that match
 * from a fixed sample, for the labelled estimate beyond the exact threshold (decision 0101).
 */
import { type Fragment, joinFragments, q, type Raw, raw } from '@guildhall/db';
import {
  listSearchExpression,
  listSearchIndex,
  listSearchPatterns,
  listSearchWords,
} from '@guildhall/shared';
import type { SearchIndexPlan } from './hooks.ts';
import type { BoundResource } from './registry.ts';

/** Rows sampled (the tenant's first by key, the same ones each time) for the share of matches. */
export const LIST_SEARCH_SHARE_SAMPLE = 2000;
/** Rows of the smaller sample read first (the first of the same rows): see SearchIndexPlan.screen. */
export const LIST_SEARCH_SCREEN_SAMPLE = 200;

/**
 * Every word in the text, each as its patterns say (decision 0199: a word of one or two characters where a word
 * begins, a longer one anywhere), as one condition the trigram index over the text serves.
 */
export function searchWordsCondition(text: Fragment | Raw, words: readonly string[]): Fragment {
  return joinFragments(
    words.map((w) => {
      const patterns = listSearchPatterns(w).map((p) => q`${text} like ${p}`);
      return patterns.length === 1 ? (patterns[0] as Fragment) : q`(${joinFragments(patterns, ' or ')})`;
    }),
    ' and ',
  );
}

/** The search box's plan through the derived trigram index; null when the resource has none (the generic ILIKE). */
export function trigramSearchPlan(bound: BoundResource, text: string): SearchIndexPlan | null {
  const index = listSearchIndex(bound.resource);
  if (!index || !bound.isTable) return null;
  const columns = index.fields.map((f) => bound.sqlColumns[f]?.text);
  if (columns.some((c) => c === undefined)) return null;
  const words = listSearchWords(text);
  if (words.length === 0) return null;
  const joined = raw(listSearchExpression(columns as string[]));
  const matches = searchWordsCondition(joined, words);
  const deleted = bound.resource.softDelete?.deleted;
  const deletedColumn = deleted ? bound.sqlColumns[deleted] : undefined;
  // The live rows of the tenant: the trigram index is partial on them, as the list's other indexes are.
  const rows = deletedColumn
    ? q`${bound.sqlTenant} = gh_current_tenant() and not ${deletedColumn}`
    : q`${bound.sqlTenant} = gh_current_tenant()`;
  return {
    keys: q`select ${bound.sqlKey} as key from ${bound.sqlSource} where ${rows} and ${matches}`,
    share: q`select coalesce(avg(m::int), 0) as share from (select (${matches}) as m from ${bound.sqlSource}
      where ${rows} order by ${bound.sqlKey} limit ${LIST_SEARCH_SHARE_SAMPLE}) s`,
    screen: q`select coalesce(avg(m::int), 0) as share from (select (${matches}) as m from ${bound.sqlSource}
      where ${rows} order by ${bound.sqlKey} limit ${LIST_SEARCH_SCREEN_SAMPLE}) s`,
    test: matches,
  };
}
