/**
 * The system messages of tasks (decision 0154): the daily reminder of an assignee's open tasks and the mail of a
 * mention in a comment; staff reword them in Communications → System messages.
 */
import { defineSystemTemplate } from '../platform/system-templates.ts';

const user = { Name: 'User.DisplayName', Description: 'Name of the staff user', Sample: 'Ada Lovelace' };

export const taskReminderMail = defineSystemTemplate({
  Key: 'tasks.reminder',
  Title: 'Task reminder',
  Description: 'Sent each morning to a staff user with open tasks overdue or due that day, listing them.',
  Group: 'Staff',
  Subject: 'Your tasks: {{Reminder.Summary}}',
  BodyHtml:
    '<p>Hello {{User.DisplayName}},</p><p>These tasks of yours need attention:</p>{{Reminder.Tasks}}<p><a href="{{Reminder.Link}}">Your tasks in the back office</a></p><p>{{Association.Name}}</p>',
  Fields: [
    user,
    {
      Name: 'Reminder.Summary',
      Description: 'How many tasks are overdue and due today',
      Sample: '2 overdue, 1 due today',
    },
    {
      Name: 'Reminder.Tasks',
      Description: 'The tasks, overdue then due today, each with its project and due time',
      Sample: 'Overdue: Renew the venue contract (Annual conference): due 12/01/2026, 9:00 AM',
    },
    {
      Name: 'Reminder.Link',
      Description: 'Address of My tasks in the back office',
      Sample: 'https://example.org/a/tasks/my',
      Link: true,
    },
  ],
});

export const taskMentionMail = defineSystemTemplate({
  Key: 'tasks.mention',
  Title: 'Task mention',
  Description: 'Sent to a staff user mentioned (@name) in a comment on a task.',
  Group: 'Staff',
  Subject: '{{Mention.Author}} mentioned you on "{{Task.Title}}"',
  BodyHtml:
    '<p>Hello {{User.DisplayName}},</p><p>{{Mention.Author}} mentioned you in a comment on the task {{Task.Title}}{{Task.Project}}:</p><blockquote>{{Mention.Comment}}</blockquote><p><a href="{{Task.Link}}">Open the task</a></p><p>{{Association.Name}}</p>',
  Fields: [
    user,
    { Name: 'Mention.Author', Description: 'Who wrote the comment', Sample: 'Grace Hopper' },
    { Name: 'Mention.Comment', Description: 'The comment', Sample: '@ada can you sign these?' },
    { Name: 'Task.Title', Description: 'Title of the task', Sample: 'Sponsor letters' },
    {
      Name: 'Task.Project',
      Description: "The task's project, when it has one",
      Sample: ' of the project Gala 2026',
    },
    {
      Name: 'Task.Link',
      Description: 'Address of the task in the back office',
      Sample: 'https://example.org/micronet/list/tasks/tasks/12',
      Link: true,
    },
  ],
});
