import { useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

interface LookupOption {
  Id: unknown;
  Name: string;
}

/**
 * The name of a record a lookup field holds, read once through its lookup (`…Lookup?id=`): a record's details and
 * a form show "Spring conference", not "#12", whatever the first typeahead page holds. Null until known, or when
 * the record is not there (deleted, or not this association's).
 */
export function useLookupName(url: string | null, value: unknown): string | null {
  const id = value === null || value === undefined || value === '' ? null : String(value);
  const { data } = useQuery({
    queryKey: ['lookup-name', url, id],
    queryFn: ({ signal }) => api.get<LookupOption[]>(`${url}?id=${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: url !== null && id !== null,
    staleTime: 60_000,
  });
  const name = data?.[0]?.Name;
  return name === undefined || name === '' ? null : name;
}
