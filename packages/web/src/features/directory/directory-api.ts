import { type DirectoryContact, MEMBER_EDITABLE_FIELDS } from '@guildhall/shared';
import { api } from '../../platform/api-client.ts';

/** A listed contact as the directory shows it: the server answers only the fields the contact publishes. */
export type { DirectoryContact };

export interface MyProfile extends DirectoryContact {
  IsListed: boolean;
  PublishedFields: number;
  Status: string;
  AccountNumber: string | null;
}

/** What a member may change on their own profile (the server refuses any other field), less the listing flags. */
export const PROFILE_FIELDS = MEMBER_EDITABLE_FIELDS.filter(
  (f): f is Exclude<(typeof MEMBER_EDITABLE_FIELDS)[number], 'IsListed' | 'PublishedFields'> =>
    f !== 'IsListed' && f !== 'PublishedFields',
);
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileChanges = Partial<Record<ProfileField, string | null>> & {
  IsListed?: boolean;
  PublishedFields?: number;
};

export const DIRECTORY_PAGE_SIZE = 25;

export const directoryApi = {
  list: (page: number, search: string, signal?: AbortSignal) =>
    api.get<{ Results: DirectoryContact[]; TotalRecordAvailable: number }>(
      `/api/mic/Contact/DirectoryContacts?${new URLSearchParams({
        $skip: String((page - 1) * DIRECTORY_PAGE_SIZE),
        $top: String(DIRECTORY_PAGE_SIZE),
        ...(search ? { search } : {}),
      })}`,
      signal ? { signal } : {},
    ),
  get: (id: string, signal?: AbortSignal) =>
    api.get<DirectoryContact>(
      `/api/mic/Contact/DirectoryContact/${encodeURIComponent(id)}`,
      signal ? { signal } : {},
    ),
  myProfile: () => api.get<MyProfile>('/api/mic/Contact/MyProfile'),
  saveProfile: (changes: ProfileChanges) => api.post<MyProfile>('/api/mic/Contact/MyProfile', changes),
};

/** The city line of a directory contact: city, state or province, country (only the parts answered). */
export function placeOf(c: Pick<DirectoryContact, 'City' | 'StateProvince' | 'CountryCode'>): string {
  return [c.City, c.StateProvince, c.CountryCode].filter((v) => v).join(', ');
}
