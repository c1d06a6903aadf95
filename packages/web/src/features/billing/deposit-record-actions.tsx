/** The deposit record's actions: its printable slip (a PDF opened in the browser's viewer), or downloaded. */
import { Button } from '@mantine/core';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';

export const depositSlipUrl = (depositId: string | number) =>
  `/api/billing/deposits/${encodeURIComponent(String(depositId))}/slip`;

export default function DepositRecordActions({ recordId }: RecordActionProps) {
  return (
    <>
      <Button
        component="a"
        href={`${depositSlipUrl(recordId)}?open=true`}
        target="_blank"
        rel="noopener"
        variant="default"
        leftSection={<IconPrinter size={16} aria-hidden />}
      >
        Print deposit slip
      </Button>
      <Button
        component="a"
        href={depositSlipUrl(recordId)}
        download
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
      >
        Download slip
      </Button>
    </>
  );
}
