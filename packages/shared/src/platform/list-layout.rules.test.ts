import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adjacentRecordIndex,
  COLUMN_DISPLAY_MODES,
  canModifyColumn,
  cappedVisibleActionCount,
  criteriaTagLabel,
  filterTagWidth,
  fitFilterTags,
  hasMoreRows,
  listTotalLabel,
  modalZIndex,
  orderByParam,
  pageCount,
  reachableRows,
  roundEstimate,
  rowActionsLayout,
  shouldApplyQueryFilter,
  shouldPrefetchNextPage,
  showMultiSelectSearch,
  skipForPage,
  validateSavedSort,
} from './list-layout.rules.ts';

describe('list and layout arithmetic (spec 000 §2, §4, §9; spec 001 §5, §9)', () => {
  it('"Tag width is estimated at 7.5 px per character plus 40 px."', () => {
    expect(filterTagWidth('')).toBe(40);
    expect(filterTagWidth('Status: Active')).toBe(14 * 7.5 + 40);
    expect(
      criteriaTagLabel({ DisplayName: 'Status', CriteriaDisplayValue: 'Active', ShowValueOnTag: true }),
    ).toBe('Status: Active');
    expect(criteriaTagLabel({ DisplayName: 'Status', CriteriaDisplayValue: 'Active' })).toBe('Status');
    expect(criteriaTagLabel({ DisplayName: 'Status', CriteriaDisplayValue: ' ', ShowValueOnTag: true })).toBe(
      'Status',
    );
  });

  it('"an advanced filter shown as tags, with a "{n} more" overflow tag when tags do not fit"', () => {
    const tags = ['aaaa', 'bbbb', 'cccc', 'dddd']; // 70 px each
    expect(fitFilterTags(tags, 280)).toEqual({ visibleCount: 4, hiddenCount: 0, overflowLabel: null });
    // 3 fit in 230 but "1 more" (85 px) does not fit beside them: drop to 2 and say "2 more"
    expect(fitFilterTags(tags, 230)).toEqual({ visibleCount: 2, hiddenCount: 2, overflowLabel: '2 more' });
    expect(fitFilterTags(tags, 50)).toEqual({ visibleCount: 0, hiddenCount: 4, overflowLabel: '4 more' });
    expect(fitFilterTags([], 0)).toEqual({ visibleCount: 0, hiddenCount: 0, overflowLabel: null });
  });

  it('property: visible tags plus the overflow tag fit whenever any tag is shown', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 15 }),
        fc.nat({ max: 2000 }),
        (tags, width) => {
          const fit = fitFilterTags(tags, width);
          expect(fit.visibleCount + fit.hiddenCount).toBe(tags.length);
          const used = tags.slice(0, fit.visibleCount).reduce((sum, tag) => sum + filterTagWidth(tag), 0);
          const overflow = fit.overflowLabel ? filterTagWidth(fit.overflowLabel) : 0;
          if (fit.visibleCount > 0) expect(used + overflow).toBeLessThanOrEqual(width);
        },
      ),
    );
  });

  it('"Row actions: more than 2 visible actions collapse into a dropdown" and are capped at 3 elsewhere', () => {
    expect(rowActionsLayout([{ visible: true }, {}]).mode).toBe('inline');
    expect(rowActionsLayout([{}, {}, { visible: false }]).mode).toBe('inline');
    expect(rowActionsLayout([{}, {}, {}]).mode).toBe('dropdown');
    expect(rowActionsLayout([{}, {}, {}]).actions).toHaveLength(3);
    expect(cappedVisibleActionCount(5)).toBe(3);
    expect(cappedVisibleActionCount(-1)).toBe(0);
  });

  it('"when fewer than 10 records remain ahead, the next page is fetched"', () => {
    expect(shouldPrefetchNextPage(39, 50, 200)).toBe(false); // 10 ahead
    expect(shouldPrefetchNextPage(40, 50, 200)).toBe(true); // 9 ahead
    expect(shouldPrefetchNextPage(45, 50, 50)).toBe(false); // nothing more to fetch
    expect(adjacentRecordIndex(0, 5, 'previous')).toBeNull();
    expect(adjacentRecordIndex(0, 5, 'next')).toBe(1);
    expect(adjacentRecordIndex(4, 5, 'next')).toBeNull();
    expect(adjacentRecordIndex(4, 5, 'previous')).toBe(3);
  });

  it('"Infinite-scroll lists stop loading when a page returns fewer rows than the page size."', () => {
    expect(hasMoreRows(50, 50)).toBe(true);
    expect(hasMoreRows(49, 50)).toBe(false);
    expect(hasMoreRows(0, 0)).toBe(false);
  });

  it('pages', () => {
    expect(skipForPage(1, 50)).toBe(0);
    expect(skipForPage(3, 50)).toBe(100);
    expect(skipForPage(0, 50)).toBe(0);
    expect(pageCount(101, 50)).toBe(3);
    expect(pageCount(0, 50)).toBe(0);
    expect(pageCount(10, 0)).toBe(0);
  });

  it('"modals at 1050 plus 10 per index"', () => {
    expect(modalZIndex(0)).toBe(1050);
    expect(modalZIndex(2)).toBe(1070);
    expect(modalZIndex(-1)).toBe(1050);
  });

  it('"Query filter applies only when more than 2 characters are typed" and "Multi-select shows the search box above 5 items"', () => {
    expect(shouldApplyQueryFilter('ab')).toBe(false);
    expect(shouldApplyQueryFilter(' abc ')).toBe(true);
    expect(showMultiSelectSearch(5)).toBe(false);
    expect(showMultiSelectSearch(6)).toBe(true);
  });

  it('"Selector columns and action columns cannot be modified." (Truncate = 0, Wrap = 1, Full = 2)', () => {
    expect(COLUMN_DISPLAY_MODES).toEqual({ Truncate: 0, Wrap: 1, Full: 2 });
    expect(canModifyColumn({ field: 'LastName' })).toBe(true);
    expect(canModifyColumn({ field: 'x', type: 'Actions' })).toBe(false);
    expect(canModifyColumn({ field: 'x', type: 'selector' })).toBe(false);
    expect(canModifyColumn({ field: '$selector' })).toBe(false);
  });

  it('"An invalid sort column clears the saved sort and reloads the list."', () => {
    const sort = { columnName: 'LastName', direction: 'desc' } as const;
    expect(validateSavedSort(sort, ['LastName'])).toEqual({ sort, reload: false });
    expect(validateSavedSort(sort, ['FirstName'])).toEqual({ sort: null, reload: true });
    expect(validateSavedSort(null, ['FirstName'])).toEqual({ sort: null, reload: false });
    expect(orderByParam(sort)).toBe('LastName desc');
    expect(orderByParam(null)).toBeUndefined();
  });
});

describe('list totals and estimates', () => {
  it('says an exact total as records and an estimate as about so many matches, with what is shown', () => {
    expect(listTotalLabel(1, false, 5000)).toBe('1 record');
    expect(listTotalLabel(1234, undefined, 5000)).toBe('1,234 records');
    expect(listTotalLabel(51_234, true, 1000)).toBe(
      'About 51,000 matches (estimated); 1,000 of them are listed, narrow the search to list the others',
    );
    // An estimate at the threshold's floor (the sample saw no match) says no more than it knows.
    expect(listTotalLabel(1001, true, 1000)).toBe(
      'More than 1,000 matches (estimated); 1,000 of them are listed, narrow the search to list the others',
    );
  });

  it('rounds an estimate to two significant digits, within 5% of it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (n) => {
        const r = roundEstimate(n);
        expect(Math.abs(r - n)).toBeLessThanOrEqual(Math.max(0.5, n * 0.05));
        expect(String(r).replace(/0+$/, '').length).toBeLessThanOrEqual(2);
      }),
    );
  });

  it('lets the pages of an estimated search reach the counted matches only', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.boolean(), (total, estimate) => {
        const reach = reachableRows(total, estimate, 5000);
        expect(reach).toBe(estimate ? Math.min(total, 5000) : total);
      }),
    );
  });
});
