/** Queries of the file library and its images; every one runs in a tenant transaction and names the tenant. */
import { contacts, files, images, projects, rowsOf, searchDocuments, type Tx, tasks } from '@guildhall/db';
import { FILE_ENTRY_TYPES, foldSearchText } from '@guildhall/shared';
import { and, asc, count, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';

export type FileRow = typeof files.$inferSelect;
export type ImageRow = typeof images.$inferSelect;

export async function findFile(tx: Tx, tenantId: string, fileId: number): Promise<FileRow | undefined> {
  const [row] = await tx
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.fileId, fileId), eq(files.isDeleted, false)));
  return row;
}

export async function findPublicFile(tx: Tx, tenantId: string, token: string): Promise<FileRow | undefined> {
  const [row] = await tx
    .select()
    .from(files)
    .where(
      and(
        eq(files.tenantId, tenantId),
        eq(files.publicToken, token),
        eq(files.isPublic, true),
        eq(files.isDeleted, false),
      ),
    );
  return row;
}

export async function contactExists(tx: Tx, tenantId: string, contactId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: contacts.contactId })
    .from(contacts)
    .where(
      and(eq(contacts.tenantId, tenantId), eq(contacts.contactId, contactId), eq(contacts.isDeleted, false)),
    );
  return row !== undefined;
}

/** Whether the task is a live task of the tenant (a task's attachments). */
export async function taskExists(tx: Tx, tenantId: string, taskId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: tasks.taskId })
    .from(tasks)
    .where(and(eq(tasks.tenantId, tenantId), eq(tasks.taskId, taskId), eq(tasks.isDeleted, false)));
  return row !== undefined;
}

/** Whether the project is a live project of the tenant (a project's files). */
export async function projectExists(tx: Tx, tenantId: string, projectId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: projects.projectId })
    .from(projects)
    .where(
      and(eq(projects.tenantId, tenantId), eq(projects.projectId, projectId), eq(projects.isDeleted, false)),
    );
  return row !== undefined;
}

/** Whether the contact is listed in the member directory (members see only listed contacts' photos). */
export async function contactListed(tx: Tx, tenantId: string, contactId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: contacts.contactId })
    .from(contacts)
    .where(
      and(
        eq(contacts.tenantId, tenantId),
        eq(contacts.contactId, contactId),
        eq(contacts.isDeleted, false),
        eq(contacts.isListed, true),
      ),
    );
  return row !== undefined;
}

export interface PageQuery {
  folderId: number | null;
  contactId: number | null;
  taskId: number | null;
  projectId: number | null;
  search: string | undefined;
  imagesOnly: boolean;
  skip: number;
  top: number;
}

/** A folder's entries (folders first, then by name), or every file whose name holds the search, one page of them. */
export async function listEntries(
  tx: Tx,
  tenantId: string,
  q: PageQuery,
): Promise<{ rows: FileRow[]; total: number }> {
  const conditions = [
    eq(files.tenantId, tenantId),
    eq(files.isDeleted, false),
    q.contactId === null ? isNull(files.contactId) : eq(files.contactId, q.contactId),
    q.taskId === null ? isNull(files.taskId) : eq(files.taskId, q.taskId),
    q.projectId === null ? isNull(files.projectId) : eq(files.projectId, q.projectId),
  ];
  if (q.search) {
    conditions.push(ilike(files.name, `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  } else {
    conditions.push(q.folderId === null ? isNull(files.folderId) : eq(files.folderId, q.folderId));
  }
  if (q.imagesOnly)
    conditions.push(sql`(${files.type} = ${FILE_ENTRY_TYPES.Folder} or ${files.contentType} like 'image/%')`);
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    tx
      .select()
      .from(files)
      .where(where)
      .orderBy(asc(files.type), asc(files.name), asc(files.fileId))
      .limit(q.top)
      .offset(q.skip),
    tx.select({ n: count() }).from(files).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** The folders from the top down to the given one. */
export async function folderPath(
  tx: Tx,
  tenantId: string,
  folderId: number | null,
): Promise<{ Id: number; Name: string }[]> {
  if (folderId === null) return [];
  const rows = rowsOf<{ file_id: string | number; name: string; depth: number }>(
    await tx.execute(sql`
      with recursive up as (
        select file_id, folder_id, name, 0 as depth from files
         where tenant_id = ${tenantId} and file_id = ${folderId} and type = ${FILE_ENTRY_TYPES.Folder}
        union all
        select f.file_id, f.folder_id, f.name, up.depth + 1 from files f join up on f.file_id = up.folder_id
         where f.tenant_id = ${tenantId} and up.depth < 100
      )
      select file_id, name, depth from up order by depth desc`),
  );
  return rows.map((r) => ({ Id: Number(r.file_id), Name: r.name }));
}

/** The entry and everything under it (a folder's whole subtree), for a delete. */
export async function subtree(tx: Tx, tenantId: string, fileId: number): Promise<FileRow[]> {
  const ids = rowsOf<{ file_id: string | number }>(
    await tx.execute(sql`
      with recursive down as (
        select file_id, 0 as depth from files where tenant_id = ${tenantId} and file_id = ${fileId}
        union all
        select f.file_id, down.depth + 1 from files f join down on f.folder_id = down.file_id
         where f.tenant_id = ${tenantId} and down.depth < 100
      )
      select file_id from down`),
  ).map((r) => Number(r.file_id));
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenantId), inArray(files.fileId, ids)));
}

export async function insertFile(tx: Tx, row: typeof files.$inferInsert): Promise<FileRow> {
  const [inserted] = await tx.insert(files).values(row).returning();
  if (!inserted) throw new Error('file row not inserted');
  return inserted;
}

export async function updateFile(
  tx: Tx,
  tenantId: string,
  fileId: number,
  set: Partial<typeof files.$inferInsert>,
): Promise<FileRow | undefined> {
  const [row] = await tx
    .update(files)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(files.tenantId, tenantId), eq(files.fileId, fileId)))
    .returning();
  return row;
}

export async function deleteFiles(tx: Tx, tenantId: string, fileIds: number[]): Promise<ImageRow[]> {
  if (fileIds.length === 0) return [];
  const gone = await tx
    .delete(images)
    .where(and(eq(images.tenantId, tenantId), inArray(images.fileId, fileIds)))
    .returning();
  await tx.delete(files).where(and(eq(files.tenantId, tenantId), inArray(files.fileId, fileIds)));
  await tx
    .delete(searchDocuments)
    .where(
      and(
        eq(searchDocuments.tenantId, tenantId),
        eq(searchDocuments.entityType, 'File'),
        inArray(searchDocuments.entityId, fileIds.map(String)),
      ),
    );
  return gone;
}

/** Rewrites a file's search document from its row (the File writer of the search index). */
export async function refreshFileSearch(tx: Tx, tenantId: string, fileId: number): Promise<void> {
  const file = await findFile(tx, tenantId, fileId);
  if (!file) {
    await tx
      .delete(searchDocuments)
      .where(
        and(
          eq(searchDocuments.tenantId, tenantId),
          eq(searchDocuments.entityType, 'File'),
          eq(searchDocuments.entityId, String(fileId)),
        ),
      );
    return;
  }
  const folder = file.folderId === null ? undefined : await findFile(tx, tenantId, file.folderId);
  await writeFileSearch(tx, tenantId, file, folder?.name ?? null);
}

/** A file is a hit of the back office's global search (Type File): its name, and the folder it is in. */
export async function writeFileSearch(tx: Tx, tenantId: string, file: FileRow, place: string | null) {
  await tx
    .delete(searchDocuments)
    .where(
      and(
        eq(searchDocuments.tenantId, tenantId),
        eq(searchDocuments.entityType, 'File'),
        eq(searchDocuments.entityId, String(file.fileId)),
      ),
    );
  if (file.type === FILE_ENTRY_TYPES.Folder) return;
  await tx.insert(searchDocuments).values({
    tenantId,
    audience: 'staff',
    entityType: 'File',
    entityId: String(file.fileId),
    title: file.name,
    titleKey: foldSearchText(file.name),
    searchText: foldSearchText([file.name, place].filter(Boolean).join(' ')),
    facets: { RelatedTo: place },
    updatedAt: new Date(),
  });
}

export async function findImage(tx: Tx, tenantId: string, imageId: number): Promise<ImageRow | undefined> {
  const [row] = await tx
    .select()
    .from(images)
    .where(and(eq(images.tenantId, tenantId), eq(images.imageId, imageId)));
  return row;
}

export async function imageOfFile(tx: Tx, tenantId: string, fileId: number): Promise<ImageRow | undefined> {
  const [row] = await tx
    .select()
    .from(images)
    .where(and(eq(images.tenantId, tenantId), eq(images.fileId, fileId)))
    .orderBy(asc(images.imageId))
    .limit(1);
  return row;
}

export async function imagesOfUsage(
  tx: Tx,
  tenantId: string,
  usageId: number,
  sourceId: number | null,
): Promise<ImageRow[]> {
  return tx
    .select()
    .from(images)
    .where(
      and(
        eq(images.tenantId, tenantId),
        eq(images.usageId, usageId),
        sourceId === null ? isNull(images.sourceId) : eq(images.sourceId, sourceId),
      ),
    )
    .orderBy(asc(images.sortOrder), asc(images.imageId));
}

export async function insertImage(tx: Tx, row: typeof images.$inferInsert): Promise<ImageRow> {
  const [inserted] = await tx.insert(images).values(row).returning();
  if (!inserted) throw new Error('image row not inserted');
  return inserted;
}

export async function updateImage(
  tx: Tx,
  tenantId: string,
  imageId: number,
  set: Partial<typeof images.$inferInsert>,
): Promise<ImageRow | undefined> {
  const [row] = await tx
    .update(images)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(images.tenantId, tenantId), eq(images.imageId, imageId)))
    .returning();
  return row;
}

export async function deleteImage(tx: Tx, tenantId: string, imageId: number): Promise<void> {
  await tx.delete(images).where(and(eq(images.tenantId, tenantId), eq(images.imageId, imageId)));
}
