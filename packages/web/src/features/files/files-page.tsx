/** The tenant's library screen: folders and files, and the gallery (the image manager). */
import { Tabs } from '@mantine/core';
import { PageHeader } from '../../platform/page.tsx';
import { FileBrowser } from './file-browser.tsx';
import { ImageManager } from './image-manager.tsx';

export function FilesPage() {
  return (
    <>
      <PageHeader title="Files" description="The association's documents and images" />
      <Tabs defaultValue="library" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="library">Library</Tabs.Tab>
          <Tabs.Tab value="gallery">Gallery</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="library" pt="md">
          <FileBrowser mode="manage" />
        </Tabs.Panel>
        <Tabs.Panel value="gallery" pt="md">
          <ImageManager />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
