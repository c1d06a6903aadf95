/**
 * The Files tab of a project (TasksProject.General) and of a task: the files feature's attachments, with the related
 * contact's files to choose from.
 */
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { Attachments } from '../files/index.ts';

const idOf = (v: unknown) => (typeof v === 'number' && v > 0 ? v : null);

export function ProjectFilesTab({ recordId, record }: RecordActionProps) {
  return <Attachments owner="project" ownerId={Number(recordId)} contactId={idOf(record.RelatedContactId)} />;
}

export function TaskFilesTab({ recordId, record }: RecordActionProps) {
  return <Attachments owner="task" ownerId={Number(recordId)} contactId={idOf(record.ContactId)} />;
}
