import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { RelatedTasks } from './related-tasks-tab.tsx';

/** An event's Tasks tab: the tasks whose related event it is (the venue to book, the badges to print). */
export default function EventTasksTab({ recordId }: RecordActionProps) {
  return (
    <RelatedTasks
      field="EventId"
      recordId={recordId}
      intro="Tasks for this event: the venue to book, the speakers to confirm, the badges to print."
      empty="No task relates to this event."
    />
  );
}
