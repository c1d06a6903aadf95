import {
  type GetEventIdAnswer,
  membershipStatusName,
  SEARCH_MIN_LENGTH,
  type SearchHit,
} from '@guildhall/shared';
import { Kbd, Loader, Paper, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { notifyError } from '../../platform/notify.ts';
import {
  globalSearchUrl,
  groupHits,
  hitGroupTitle,
  isReachable,
  type SearchArea,
  screenPath,
  searchTarget,
} from './search-target.ts';

const DEBOUNCE_MS = 250;

function hitDetail(hit: SearchHit): string {
  return [
    hit.RelatedTo,
    [hit.City, hit.StateProvince].filter(Boolean).join(', '),
    hit.AccountNumber,
    hit.Status,
    hit.MembershipStatus ? `Member: ${membershipStatusName(hit.MembershipStatus)}` : null,
  ]
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .join(' · ');
}

/**
 * The header's global search: an ARIA combobox with typeahead (debounced), hits grouped by type, arrow keys and
 * Enter; "/" or Ctrl+K focuses it from anywhere. A hit opens its screen (searchTarget), or downloads a file.
 */
export function HeaderSearch({ area }: { area: SearchArea }) {
  const navigate = useNavigate();
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [debounced] = useDebouncedValue(query.trim().toLowerCase(), DEBOUNCE_MS);
  const enabled = debounced.length >= SEARCH_MIN_LENGTH;
  const result = useQuery({
    queryKey: ['global-search', area, debounced],
    queryFn: ({ signal }) => api.get<{ Records: SearchHit[] }>(globalSearchUrl(area, debounced), { signal }),
    enabled,
    staleTime: 15_000,
  });
  const groups = useMemo(
    () => groupHits((result.data?.Records ?? []).filter((h) => isReachable(searchTarget(h, area)))),
    [result.data, area],
  );
  const flat = useMemo(() => groups.flatMap((g) => g.hits), [groups]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing =
        target !== null &&
        (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);
      if ((e.key === 'k' && (e.ctrlKey || e.metaKey)) || (e.key === '/' && !typing)) {
        e.preventDefault();
        inputRef.current?.focus();
        inputRef.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  function openHit(hit: SearchHit) {
    const target = searchTarget(hit, area);
    setOpen(false);
    setQuery('');
    inputRef.current?.blur();
    if (target.kind === 'screen') {
      const path = screenPath(target.screen, target.params);
      if (path) navigate(path);
    } else if (target.kind === 'download') {
      window.location.assign(target.url);
    } else if (target.kind === 'event') {
      // GET /api/events/getEventId/{id} answers the screen's parameters (EventId, EventDetailId, HashEventId).
      api
        .get<GetEventIdAnswer>(target.lookupUrl)
        .then((answer) => {
          const path = screenPath(target.screen, {
            EventId: String(answer.EventId),
            EventDetailId: answer.EventDetailId === null ? '' : String(answer.EventDetailId),
            HashedEventId: answer.HashEventId,
          });
          if (path) navigate(path);
        })
        .catch(notifyError);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((i) => (flat.length === 0 ? 0 : (i + 1) % flat.length));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => (flat.length === 0 ? 0 : (i - 1 + flat.length) % flat.length));
    } else if (e.key === 'Enter') {
      const hit = flat[active];
      if (open && hit) {
        e.preventDefault();
        openHit(hit);
      }
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        setOpen(false);
      } else setQuery('');
    }
  }

  const showList = open && enabled;
  const optionId = (i: number) => `${listId}-option-${i}`;
  let index = -1;
  return (
    <div style={{ position: 'relative', flex: '1 1 auto', maxWidth: 420, minWidth: 0 }}>
      <TextInput
        ref={inputRef}
        value={query}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        placeholder="Search"
        aria-label="Search everything"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && flat[active] ? optionId(active) : undefined}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          result.isFetching && enabled ? (
            <Loader size="xs" />
          ) : (
            <Kbd size="xs" visibleFrom="sm" aria-hidden>
              /
            </Kbd>
          )
        }
        data-testid="global-search"
        autoComplete="off"
        spellCheck={false}
      />
      <Paper
        id={listId}
        role="listbox"
        aria-label="Search results"
        shadow="md"
        withBorder
        style={{
          display: showList ? 'block' : 'none',
          position: 'absolute',
          top: 'calc(100% + 4px)',
          left: 0,
          right: 0,
          minWidth: 280,
          maxHeight: 420,
          overflowY: 'auto',
          zIndex: 300,
        }}
        // Keep focus in the input while a hit is clicked.
        onMouseDown={(e) => e.preventDefault()}
      >
        {groups.map((group) => (
          // biome-ignore lint/a11y/useSemanticElements: a group of options inside a listbox (ARIA), not a form fieldset.
          <div key={group.type} role="group" aria-labelledby={`${listId}-${group.type}`}>
            <Text id={`${listId}-${group.type}`} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="xs">
              {hitGroupTitle(group.type)}
            </Text>
            {group.hits.map((hit) => {
              index += 1;
              const i = index;
              const selected = i === active;
              const detail = hitDetail(hit);
              return (
                <UnstyledButton
                  key={`${hit.Type}:${hit.Id}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={selected}
                  tabIndex={-1}
                  onClick={() => openHit(hit)}
                  onMouseEnter={() => setActive(i)}
                  px="sm"
                  py={6}
                  display="block"
                  w="100%"
                  bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                >
                  <Text size="sm" fw={500} truncate="end">
                    {hit.Title}
                  </Text>
                  {detail ? (
                    <Text size="xs" c="dimmed" truncate="end">
                      {detail}
                    </Text>
                  ) : null}
                </UnstyledButton>
              );
            })}
          </div>
        ))}
        {flat.length === 0 ? (
          <Text size="sm" c="dimmed" p="sm" role="status">
            {result.isFetching || debounced !== query.trim().toLowerCase() ? 'Searching…' : 'Nothing found'}
          </Text>
        ) : null}
      </Paper>
    </div>
  );
}
