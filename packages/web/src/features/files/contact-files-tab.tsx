/** The contact record's Files tab: the contact's folders and files, uploads into them. */
import { FileBrowser } from './file-browser.tsx';

export default function ContactFilesTab({ recordId }: { recordId: string }) {
  return <FileBrowser mode="manage" contactId={Number(recordId)} />;
}
