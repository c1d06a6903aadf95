import { IconFiles } from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

/**
 * The image field other features embed (the association's logo in the settings). Lazy, as everything this index
 * exports: the modules list imports it with the first page.
 */
export const ImageSlot = lazy(() => import('./image-slot.tsx').then((m) => ({ default: m.ImageSlot })));

/** The upload field (spec 001 sections 3 and 4) other features embed: a custom field of type file. */
export const UploadField = lazy(() => import('./upload-field.tsx').then((m) => ({ default: m.UploadField })));

/**
 * A task's attachments or a project's files (upload, choose from the library or the related contact's files,
 * download, delete): the tasks feature puts it on its records' Files tabs.
 */
export const Attachments = lazy(() => import('./attachments.tsx').then((m) => ({ default: m.Attachments })));

/** A contact's photo (the record's aside, and a listed contact's in the member directory). */
export const ContactPhoto = lazy(() => import('./contact-photo.tsx'));

/** The association's logo beside its name in the back-office header, loaded after the shell. */
export const HeaderLogo = lazy(() => import('./header-logo.tsx'));

export const filesModule: WebModule = {
  name: 'files',
  backOffice: [
    page(
      'files',
      { stateName: 'Files.Library', title: 'Files' },
      screen(
        () => import('./files-page.tsx'),
        (m) => m.FilesPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'communications',
      to: '/a/files',
      label: 'Files',
      icon: IconFiles,
      permission: 'backoffice',
      description: 'The association’s files and images, in folders: upload, rename, move and find them.',
    },
  ],
  recordTabs: {
    contacts: [{ key: 'files', title: 'Files', Panel: lazy(() => import('./contact-files-tab.tsx')) }],
  },
  recordAsides: { contacts: ContactPhoto },
  // Every record's image field: upload, choose from the library and crop through the image dialog.
  fieldPickers: { image: lazy(() => import('./image-field-picker.tsx')) },
};
