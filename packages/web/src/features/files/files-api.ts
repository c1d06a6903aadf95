/** Calls of the file library and images, and uploads with real progress (XHR: fetch reports none). */
import {
  type CopyFile,
  FILE_PAGE_SIZE,
  type FileEntry,
  type FilePage,
  type Image,
  type ImageSave,
  type ImageUsageAnswer,
  type UploadedFile,
  uploadErrorMessage,
} from '@guildhall/shared';
import { ApiError, api, GENERIC_ERROR_MESSAGE, toApiError } from '../../platform/api-client.ts';

export interface FolderQuery {
  contactId?: number | undefined;
  folderId?: number | null | undefined;
  search?: string | undefined;
  page?: number | undefined;
  imagesOnly?: boolean | undefined;
}

export function folderUrl(q: FolderQuery): string {
  const params = new URLSearchParams();
  if (q.folderId) params.set('folderId', String(q.folderId));
  if (q.search?.trim()) params.set('search', q.search.trim());
  if (q.page && q.page > 1) params.set('skip', String((q.page - 1) * FILE_PAGE_SIZE));
  if (q.imagesOnly) params.set('images', 'true');
  const base = q.contactId ? `/api/files/contact/${q.contactId}` : '/api/files/library';
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

export const filesApi = {
  folder: (q: FolderQuery) => api.get<FilePage>(folderUrl(q)),
  createFolder: (Name: string, FolderId: number | null, ContactId?: number) =>
    api.post<FileEntry>('/api/files/folder', { Name, FolderId, ...(ContactId ? { ContactId } : {}) }),
  rename: (id: number, Name: string) => api.put<FileEntry>(`/api/files/entry/${id}/name`, { Name }),
  move: (id: number, FolderId: number | null) =>
    api.put<FileEntry>(`/api/files/entry/${id}/folder`, { FolderId }),
  remove: (id: number) => api.delete<{ Deleted: boolean }>(`/api/files/entry/${id}`),
  /** A task's attachments or a project's files. */
  attachments: (owner: AttachmentOwner, ownerId: number) =>
    api.get<FilePage>(`/api/files/${owner}/${ownerId}`),
  /** Copies a file of the library (or of a contact) into a contact's files, a task's or a project's. */
  copy: (fileId: number, place: CopyFile) => api.post<FileEntry>(`/api/files/entry/${fileId}/copy`, place),
  usage: (usageId: number, sourceId?: number | null) =>
    api.get<ImageUsageAnswer>(`/api/images/Usage/${usageId}${sourceId ? `?secondary=${sourceId}` : ''}`),
  image: (id: number) => api.get<Image>(`/api/images/Image/${id}`),
  imageOfFile: (fileId: number) => api.get<Image>(`/api/images/File/${fileId}`),
  saveImage: (id: number, body: ImageSave) => api.put<Image>(`/api/images/Image/${id}`, body),
  deleteImage: (id: number) => api.delete<{ Deleted: boolean }>(`/api/images/Image/${id}`),
  chooseImage: (usageId: number, sourceId: number | null, fileId: number) =>
    api.post<Image>(`/api/images/Usage/${usageId}/File/${fileId}${sourceId ? `?secondary=${sourceId}` : ''}`),
  reorder: (usageId: number, sourceId: number | null, ImageIds: number[]) =>
    api.put<ImageUsageAnswer>(
      `/api/images/Usage/${usageId}/order${sourceId ? `?secondary=${sourceId}` : ''}`,
      {
        ImageIds,
      },
    ),
};

export type AttachmentOwner = 'task' | 'project';

export const uploadUrl = (opts: {
  folderId?: number | null;
  contactId?: number | null;
  taskId?: number | null;
  projectId?: number | null;
  isPublic?: boolean;
}) => {
  const params = new URLSearchParams();
  if (opts.folderId) params.set('folderId', String(opts.folderId));
  if (opts.contactId) params.set('contactId', String(opts.contactId));
  if (opts.taskId) params.set('taskId', String(opts.taskId));
  if (opts.projectId) params.set('projectId', String(opts.projectId));
  // "?makePublic=true&forceSave=true when the field is public" (spec 001 section 7).
  if (opts.isPublic) {
    params.set('makePublic', 'true');
    params.set('forceSave', 'true');
  }
  const query = params.toString();
  return query ? `/api/files/upload?${query}` : '/api/files/upload';
};

/**
 * Sends one file as multipart (field `file`) and reports the share of bytes sent (0 to 1). A refusal carries the
 * server's message; the spec's codes (-600, -601) are worded by the shared rules.
 */
export function uploadWithProgress<T>(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
        return;
      }
      const code = (body as { Code?: unknown } | undefined)?.Code;
      if (typeof code === 'number') {
        reject(
          new ApiError(
            xhr.status,
            uploadErrorMessage(code, file.name, (body as { message?: string }).message),
          ),
        );
        return;
      }
      reject(toApiError(xhr.status, body));
    };
    xhr.onerror = () =>
      reject(
        new ApiError(0, 'We could not reach the server. Check your connection and try again.', {
          isKnown: true,
        }),
      );
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export function uploadMessage(error: unknown): string {
  if (error instanceof ApiError) return error.isKnown ? error.message : GENERIC_ERROR_MESSAGE;
  return error instanceof Error ? error.message : GENERIC_ERROR_MESSAGE;
}

export type { UploadedFile };
