/**
 * Wire shapes of the tenant's file library and its images (spec 001 sections 3 and 7), written once here for the
 * server's route schemas and the web's calls.
 */
import { z } from 'zod';

/** "File picker page size 100" (spec 001 section 9). */
export const FILE_PAGE_SIZE = 100;

/** "Type (1 means folder, otherwise file)": the two kinds of entry in the library. */
export const FILE_ENTRY_TYPES = { Folder: 1, File: 2 } as const;

/** A library entry as lists show it: a folder or a file (File entry, spec 001 section 3). */
export const fileEntrySchema = z.object({
  Id: z.number(),
  Type: z.number(),
  FolderId: z.number().nullable(),
  Name: z.string(),
  ContentType: z.string().nullable(),
  Size: z.number().nullable(),
  ContactId: z.number().nullable(),
  /** Set on a task's attachments and a project's files. */
  TaskId: z.number().nullable(),
  ProjectId: z.number().nullable(),
  IsPublic: z.boolean(),
  /** Where the file downloads (private: needs a session of the tenant; public: an unguessable address). */
  Url: z.string().nullable(),
  CreatedAt: z.string(),
});
export type FileEntry = z.infer<typeof fileEntrySchema>;

/** One page of a folder: its entries, the folder's path from the root, and the total for paging. */
export const filePageSchema = z.object({
  Records: z.array(fileEntrySchema),
  TotalRecordAvailable: z.number(),
  /** The folders from the root down to the one listed (empty at the root). */
  Path: z.array(z.object({ Id: z.number(), Name: z.string() })),
});
export type FilePage = z.infer<typeof filePageSchema>;

/** Query of a library page: a folder (root when absent), a name search across the library, paging. */
export const fileListQuerySchema = z.object({
  folderId: z.coerce.number().int().positive().optional(),
  search: z.string().trim().max(200).optional(),
  skip: z.coerce.number().int().min(0).max(1_000_000).optional(),
  top: z.coerce.number().int().min(1).max(FILE_PAGE_SIZE).optional(),
  /** Only images (the image dialog's "choose from the library"). */
  images: z.enum(['true', 'false']).optional(),
});

const fileName = z
  .string()
  .trim()
  .min(1, 'Enter a name.')
  .max(200, 'At most 200 characters.')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  .refine((s) => !/[\\/\u0000-\u001f]/.test(s), 'A name cannot contain / or \\.');

export const createFolderSchema = z
  .object({ Name: fileName, FolderId: z.number().int().positive().nullable().optional() })
  .strict();
export const renameFileSchema = z.object({ Name: fileName }).strict();
export const moveFileSchema = z.object({ FolderId: z.number().int().positive().nullable() }).strict();

/** "Uploaded file model on a custom field: Name, Url, ContentType, FileId" (spec 001 section 3). */
export const uploadedFileSchema = z.object({
  Name: z.string(),
  Url: z.string(),
  ContentType: z.string(),
  FileId: z.number(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** The upload's query: where the file goes and whether it is public (`?makePublic=true&forceSave=true`). */
const placeId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/**
 * A copy of a library file (or of a contact's file) into another place: a contact's files, a task's attachments or a
 * project's files. Exactly one place; the copy has its own stored bytes, so deleting either leaves the other.
 */
export const copyFileSchema = z
  .object({
    ContactId: placeId.optional(),
    TaskId: placeId.optional(),
    ProjectId: placeId.optional(),
  })
  .strict()
  .refine((p) => [p.ContactId, p.TaskId, p.ProjectId].filter((v) => v !== undefined).length === 1, {
    message: 'Choose one place: a contact, a task or a project.',
  });
export type CopyFile = z.infer<typeof copyFileSchema>;

export const uploadQuerySchema = z.object({
  folderId: z.coerce.number().int().positive().optional(),
  contactId: z.coerce.number().int().positive().optional(),
  /** A task's attachment, or a project's file (they sit in no folder). */
  taskId: z.coerce.number().int().positive().optional(),
  projectId: z.coerce.number().int().positive().optional(),
  makePublic: z.enum(['true', 'false']).optional(),
  forceSave: z.enum(['true', 'false']).optional(),
});

/**
 * Image: ImageId, FileId, Url, Name, Title, Caption, ShortDescription (alt text), CropX, CropY, CropWidth,
 * CropHeight, ForceAspect (spec 001 section 3). Url is the served variant (the crop applied); OriginalUrl and
 * ThumbnailUrl are ours.
 */
export const imageSchema = z.object({
  ImageId: z.number(),
  FileId: z.number(),
  Url: z.string().nullable(),
  Name: z.string(),
  Title: z.string().nullable(),
  Caption: z.string().nullable(),
  ShortDescription: z.string().nullable(),
  CropX: z.number().nullable(),
  CropY: z.number().nullable(),
  CropWidth: z.number().nullable(),
  CropHeight: z.number().nullable(),
  ForceAspect: z.number().nullable(),
  OriginalUrl: z.string().nullable(),
  ThumbnailUrl: z.string().nullable(),
  Width: z.number(),
  Height: z.number(),
  UsageId: z.number().nullable(),
  SourceId: z.number().nullable(),
  SortOrder: z.number(),
});
export type Image = z.infer<typeof imageSchema>;

const text = z.string().max(1000).nullable().optional();
const cropNumber = z.number().int().min(0).max(100_000).nullable().optional();

/** What the image dialog saves: the texts and the crop (applied on the server to make the variants). */
export const imageSaveSchema = z
  .object({
    Title: text,
    Caption: text,
    ShortDescription: text,
    CropX: cropNumber,
    CropY: cropNumber,
    CropWidth: cropNumber,
    CropHeight: cropNumber,
    ForceAspect: z.number().positive().max(100).nullable().optional(),
  })
  .strict();
export type ImageSave = z.infer<typeof imageSaveSchema>;

/** Where an image is used (its usage id) and the aspect ratio that usage forces, if any. */
export const IMAGE_USAGES = {
  1: { name: 'Association logo', aspectRatio: null, single: true },
  2: { name: 'Contact photo', aspectRatio: 1, single: true },
  3: { name: 'Gallery', aspectRatio: null, single: false },
} as const satisfies Record<number, { name: string; aspectRatio: number | null; single: boolean }>;
export type ImageUsageId = keyof typeof IMAGE_USAGES;
export const IMAGE_USAGE = { Logo: 1, ContactPhoto: 2, Gallery: 3 } as const;

export function imageUsage(id: number): (typeof IMAGE_USAGES)[ImageUsageId] | undefined {
  return (IMAGE_USAGES as Record<number, (typeof IMAGE_USAGES)[ImageUsageId]>)[id];
}

/** `GET /api/images/Usage/{usageId}?secondary={sourceId}`: the usage's aspect ratio and its images. */
export const imageUsageAnswerSchema = z.object({
  UsageId: z.number(),
  Name: z.string(),
  AspectRatio: z.number().nullable(),
  Images: z.array(imageSchema),
});
export type ImageUsageAnswer = z.infer<typeof imageUsageAnswerSchema>;

/** `POST /api/images/Upload/{folderTypeId}/{sourceId}`: "response has Url and FileId", with the image made. */
export const imageUploadAnswerSchema = z.object({ Url: z.string(), FileId: z.number(), ImageId: z.number() });
/** `POST /api/images/upload/`: "response has link" (the editors). */
export const editorImageUploadAnswerSchema = z.object({ link: z.string() });

export const imageOrderSchema = z
  .object({ ImageIds: z.array(z.number().int().positive()).max(1000) })
  .strict();

/** Upload error answer: the spec's code beside the message (-600, -601). */
export const uploadErrorSchema = z.object({ message: z.string(), Code: z.number().optional() });

/** Content types shown in the browser by `?open=true`; everything else downloads as an attachment. */
export const INLINE_CONTENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/bmp',
  'application/pdf',
  'text/plain',
] as const;

export function opensInline(contentType: string): boolean {
  return (INLINE_CONTENT_TYPES as readonly string[]).includes(
    contentType.split(';')[0]!.trim().toLowerCase(),
  );
}

/** The private download address of a library file, and the contact file address (spec 001 section 7). */
export const fileDownloadUrl = (fileId: number, open = false) =>
  `/api/files/download/${fileId}/${open ? '?open=true' : ''}`;
/**
 * The image of a library file for the back office, by the file's id (what an `image` field of a record holds,
 * decision 0092): its thumbnail (150x150) or its served variant (the crop applied).
 */
export const fileImageUrl = (fileId: number, size: 'thumbnail' | 'content' = 'thumbnail') =>
  `/api/images/File/${fileId}/${size}`;
export const contactFileUrl = (contactId: number, fileId: number) =>
  `/api/files/tenant/contact/${contactId}/${fileId}`;
