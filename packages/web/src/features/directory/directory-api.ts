import {
  type DirectoryContact,
  type DirectoryList,
  MEMBER_EDITABLE_FIELDS,
  type MemberEditableField,
  type MemberProfileAnswer,
  type MemberProfileChanges,
} from '@guildhall/shared';
import { api } from '../../platform/api-client.ts';

/** A listed contact as the directory shows it: the server answers only the fields the contact publishes. */
export type { DirectoryContact };

export type MyProfile = MemberProfileAnswer;

/** What a member may change on their own profile (the server refuses any other field), less the listing flags. */
export const PROFILE_FIELDS = MEMBER_EDITABLE_FIELDS.filter(
  (f): f is Exclude<MemberEditableField, 'IsListed' | 'PublishedFields'> =>
    f !== 'IsListed' && f !== 'PublishedFields',
);
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileChanges = MemberProfileChanges;

export const DIRECTORY_PAGE_SIZE = 25;

export const directoryApi = {
  list: (page: number, search: string, signal?: AbortSignal) =>
    api.get<DirectoryList>(
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
