/**
 * The demo association's tasks and projects: a project template (the annual conference, its tasks months before the
 * day), the conference planned from it, a membership drive and a website refresh under way, with tasks in every
 * status spread over three staff members, checklists, dependencies, comments and a monthly recurring task. Dates
 * are relative to the day the demo is seeded, so overdue tasks and tasks due this week are always there.
 */
import { type Db, rowsOf, type Tx, withTenantTx } from '@guildhall/db';
import { createUser } from '@guildhall/db/seed/factories';
import { DEFAULT_TIMEZONE, foldSearchText, relativeDueAt, searchTextOf, zonedDate } from '@guildhall/shared';
import { sql } from 'drizzle-orm';

interface DemoTask {
  title: string;
  status: 'todo' | 'in_progress' | 'waiting' | 'done' | 'cancelled';
  priority?: 'low' | 'normal' | 'high' | 'urgent';
  /** Days from today (negative: in the past), at `time` in the association's timezone. */
  dueInDays?: number;
  time?: string;
  assignees: number[];
  checklist?: [string, boolean][];
  waitsOn?: string[];
  contact?: boolean;
  comments?: [number, string][];
  repeats?: 'weekly' | 'monthly';
  description?: string;
}

/** The annual conference template: days before the conference. */
const CONFERENCE_TEMPLATE: [string, number, string, string, string][] = [
  [
    'Book the venue',
    -180,
    '09:00',
    'high',
    'Shortlist three venues\nVisit the shortlisted venues\nSign the contract',
  ],
  ['Confirm the keynote speaker', -150, '10:00', 'high', ''],
  ['Open registration', -120, '09:00', 'normal', 'Set the fees\nPublish the registration page'],
  ['Order catering', -60, '11:00', 'normal', 'Ask for dietary needs\nConfirm numbers'],
  ['Print badges and programme', -14, '14:00', 'normal', ''],
  ['Send joining instructions', -7, '09:00', 'normal', ''],
  ['Conference day', 0, '08:00', 'urgent', ''],
  ['Thank-you mail to attendees', 3, '10:00', 'low', ''],
];

async function insertTask(
  tx: Tx,
  tenantId: string,
  projectId: number | null,
  order: number,
  t: DemoTask,
  timeZone: string,
  contactId: number | null,
): Promise<number> {
  const today = zonedDate(new Date(), timeZone);
  const due =
    t.dueInDays === undefined ? null : relativeDueAt(today, t.dueInDays, t.time ?? '09:00', timeZone);
  const [row] = rowsOf<{ task_id: string }>(
    await tx.execute(sql`
      insert into tasks (tenant_id, project_id, title, description, status, priority, due_at, contact_id,
                         recurrence_frequency, recurrence_interval, sort_order, created_by,
                         completed_at)
      values (${tenantId}, ${projectId}, ${t.title}, ${t.description ?? null}, ${t.status}, ${t.priority ?? 'normal'},
              ${due}, ${contactId}, ${t.repeats ?? null}, ${t.repeats ? 1 : null}, ${order}, ${t.assignees[0] ?? null},
              ${t.status === 'done' ? (due ?? new Date()) : null})
      returning task_id`),
  );
  const taskId = Number(row?.task_id);
  for (const userId of t.assignees)
    await tx.execute(
      sql`insert into task_assignees (tenant_id, task_id, user_id) values (${tenantId}, ${taskId}, ${userId})`,
    );
  let n = 1;
  for (const [title, done] of t.checklist ?? [])
    await tx.execute(sql`
      insert into task_checklist_items (tenant_id, task_id, title, is_done, sort_order)
      values (${tenantId}, ${taskId}, ${title}, ${done}, ${n++})`);
  for (const [userId, body] of t.comments ?? [])
    await tx.execute(sql`
      insert into task_comments (tenant_id, task_id, body, author_user_id, author_name)
      select ${tenantId}, ${taskId}, ${body}, ${userId}, display_name from user_directory
       where tenant_id = ${tenantId} and user_id = ${userId}`);
  return taskId;
}

/** Derived columns and search documents, as the server keeps them on every write. */
async function refreshDerived(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`
    update tasks t set
      assignee_names = (select string_agg(u.display_name, ', ' order by u.display_name) from task_assignees a
                          join user_directory u on u.tenant_id = a.tenant_id and u.user_id = a.user_id
                         where a.tenant_id = t.tenant_id and a.task_id = t.task_id and not a.is_deleted),
      checklist_total = (select count(*) from task_checklist_items c
                          where c.tenant_id = t.tenant_id and c.task_id = t.task_id and not c.is_deleted),
      checklist_done = (select count(*) from task_checklist_items c
                         where c.tenant_id = t.tenant_id and c.task_id = t.task_id and not c.is_deleted and c.is_done),
      project_name = (select p.name from projects p where p.tenant_id = t.tenant_id and p.project_id = t.project_id),
      contact_name = (select c.display_name from contacts c
                       where c.tenant_id = t.tenant_id and c.contact_id = t.contact_id)
     where t.tenant_id = ${tenantId}`);
  await tx.execute(sql`
    update projects p set
      owner_name = (select u.display_name from user_directory u
                     where u.tenant_id = p.tenant_id and u.user_id = p.owner_user_id),
      related_contact_name = (select c.display_name from contacts c
                               where c.tenant_id = p.tenant_id and c.contact_id = p.related_contact_id)
     where p.tenant_id = ${tenantId}`);
  await tx.execute(sql`
    update projects p set
      task_count = s.total, open_task_count = s.open,
      progress = case when s.counted = 0 then 0 else floor(100.0 * s.done / s.counted)::int end
      from (select project_id, count(*) as total,
                   count(*) filter (where status not in ('done', 'cancelled')) as open,
                   count(*) filter (where status <> 'cancelled') as counted,
                   count(*) filter (where status = 'done') as done
              from tasks where tenant_id = ${tenantId} and not is_deleted group by project_id) s
     where p.tenant_id = ${tenantId} and p.project_id = s.project_id`);
  const projects = rowsOf<{ project_id: string; name: string; status: string; related_name: string | null }>(
    await tx.execute(
      sql`select project_id, name, status, related_name from projects where tenant_id = ${tenantId}`,
    ),
  );
  for (const p of projects)
    await tx.execute(sql`
      insert into search_documents (tenant_id, audience, entity_type, entity_id, title, title_key, search_text, facets)
      values (${tenantId}, 'staff', 'Project', ${String(p.project_id)}, ${p.name}, ${foldSearchText(p.name)},
              ${searchTextOf([p.name, p.related_name])},
              ${JSON.stringify({ Status: p.status, RelatedTo: p.related_name })}::jsonb)
      on conflict do nothing`);
  const tasks = rowsOf<{
    task_id: string;
    project_id: string | null;
    title: string;
    status: string;
    assignee_names: string | null;
    project_name: string | null;
  }>(
    await tx.execute(sql`
      select t.task_id, t.project_id, t.title, t.status, t.assignee_names, p.name as project_name
        from tasks t left join projects p on p.tenant_id = t.tenant_id and p.project_id = t.project_id
       where t.tenant_id = ${tenantId}`),
  );
  for (const t of tasks)
    await tx.execute(sql`
      insert into search_documents (tenant_id, audience, entity_type, entity_id, title, title_key, search_text, facets)
      values (${tenantId}, 'staff', 'Task', ${`${t.project_id ?? 0}-${t.task_id}`}, ${t.title}, ${foldSearchText(t.title)},
              ${searchTextOf([t.title, t.assignee_names, t.project_name])},
              ${JSON.stringify({ Status: t.status, RelatedTo: t.project_name })}::jsonb)
      on conflict do nothing`);
}

export async function seedDemoTasks(db: Db, tenantId: string, danaId: number): Promise<void> {
  const sam = await createUser(db, {
    tenantId,
    username: 'sam.organiser',
    password: 'sam-organiser-pass-2026',
    role: 'staff',
    displayName: 'Sam Organiser',
    email: 'sam.organiser@demo-association.example.org',
  });
  const priya = await createUser(db, {
    tenantId,
    username: 'priya.events',
    password: 'priya-events-pass-2026',
    role: 'staff',
    displayName: 'Priya Events',
    email: 'priya.events@demo-association.example.org',
  });
  const dana = danaId;
  await withTenantTx(db, { tenantId }, async (tx) => {
    const [settings] = rowsOf<{ tz: string | null }>(
      await tx.execute(sql`select settings->>'defaultTimezone' as tz from tenants where id = ${tenantId}`),
    );
    const timeZone = settings?.tz ?? DEFAULT_TIMEZONE;
    const today = zonedDate(new Date(), timeZone);
    const contacts = rowsOf<{ contact_id: string }>(
      await tx.execute(sql`
        select contact_id from contacts where tenant_id = ${tenantId} and not is_deleted
         order by contact_id limit 5`),
    ).map((r) => Number(r.contact_id));
    const contactOf = (i: number) => contacts[i % Math.max(1, contacts.length)] ?? null;

    // The template.
    const [tpl] = rowsOf<{ template_id: string }>(
      await tx.execute(sql`
        insert into project_templates (tenant_id, name, description, result_type)
        values (${tenantId}, 'Annual conference',
                'Everything the annual conference needs, from booking the venue six months ahead to the thank-you mail.',
                'event')
        returning template_id`),
    );
    const templateId = Number(tpl?.template_id);
    for (const [title, offset, time, priority, checklist] of CONFERENCE_TEMPLATE)
      await tx.execute(sql`
        insert into project_template_tasks (tenant_id, template_id, title, offset_days, due_time, priority, checklist)
        values (${tenantId}, ${templateId}, ${title}, ${offset}, ${time}, ${priority}, ${checklist || null})`);
    await tx.execute(sql`
      insert into project_templates (tenant_id, name, description, result_type)
      values (${tenantId}, 'Membership drive', 'A campaign to bring in new members before the renewal season.', 'campaign')`);

    const project = async (p: {
      name: string;
      status: string;
      startInDays: number;
      dueInDays: number;
      owner: number;
      result: string;
      description: string;
      related?: [string, string | null, number | null];
      template?: string;
    }) => {
      const [row] = rowsOf<{ project_id: string }>(
        await tx.execute(sql`
          insert into projects (tenant_id, name, description, owner_user_id, status, start_date, due_date, result_type,
                                related_type, related_name, related_contact_id, template_name)
          values (${tenantId}, ${p.name}, ${p.description}, ${p.owner}, ${p.status},
                  ${relativeDay(today, p.startInDays)}, ${relativeDay(today, p.dueInDays)}, ${p.result},
                  ${p.related?.[0] ?? null}, ${p.related?.[1] ?? null}, ${p.related?.[2] ?? null}, ${p.template ?? null})
          returning project_id`),
      );
      return Number(row?.project_id);
    };

    // The conference, planned from the template: the day is 150 days away, so the first tasks are under way.
    const conferenceIn = 150;
    const conference = await project({
      name: `Annual conference ${Number(today.slice(0, 4)) + 1}`,
      status: 'active',
      startInDays: -40,
      dueInDays: conferenceIn,
      owner: priya.id,
      result: 'event',
      description:
        '<p>Our yearly gathering of members: two days of talks, workshops and the annual general meeting.</p>',
      related: ['event', 'Annual conference and AGM', null],
      template: 'Annual conference',
    });
    const conferenceTasks: DemoTask[] = CONFERENCE_TEMPLATE.map(
      ([title, offset, time, priority, checklist]) => {
        const dueInDays = conferenceIn + offset;
        const status =
          title === 'Book the venue'
            ? 'done'
            : title === 'Confirm the keynote speaker'
              ? 'in_progress'
              : 'todo';
        return {
          title,
          status,
          priority: priority as DemoTask['priority'],
          dueInDays,
          time,
          assignees: title === 'Order catering' ? [sam.id] : [priya.id],
          checklist: checklist
            .split('\n')
            .filter((l) => l !== '')
            .map(
              (l, i) => [l, status === 'done' || (status === 'in_progress' && i === 0)] as [string, boolean],
            ),
          ...(title === 'Order catering' ? { waitsOn: ['Open registration'] } : {}),
          ...(title === 'Open registration' ? { waitsOn: ['Book the venue'] } : {}),
          ...(title === 'Confirm the keynote speaker'
            ? {
                comments: [
                  [
                    priya.id,
                    '@demo.staff the speaker asked whether we cover travel. Can you confirm the budget?',
                  ],
                  [dana, 'Yes, economy travel and one night. Go ahead.'],
                ] as [number, string][],
              }
            : {}),
        };
      },
    );

    const drive = await project({
      name: 'Membership drive',
      status: 'active',
      startInDays: -20,
      dueInDays: 25,
      owner: sam.id,
      result: 'campaign',
      description:
        '<p>Bring in 150 new members before the renewal season: mailings, a referral offer and an open evening.</p>',
      related: ['membershipType', 'Individual membership', null],
      template: 'Membership drive',
    });
    const driveTasks: DemoTask[] = [
      {
        title: 'Draft the campaign letter',
        status: 'done',
        dueInDays: -10,
        assignees: [sam.id],
        priority: 'high',
      },
      {
        title: 'Agree the referral offer with the board',
        status: 'done',
        dueInDays: -6,
        assignees: [dana],
        contact: true,
      },
      {
        title: 'Mail lapsed members',
        status: 'in_progress',
        dueInDays: -1,
        time: '16:00',
        assignees: [sam.id, dana],
        priority: 'high',
        checklist: [
          ['Export lapsed members', true],
          ['Merge the letter', true],
          ['Send the mailing', false],
        ],
        waitsOn: ['Draft the campaign letter'],
      },
      {
        title: 'Call the ten largest lapsed organisations',
        status: 'todo',
        dueInDays: 2,
        assignees: [dana],
        priority: 'urgent',
        contact: true,
      },
      {
        title: 'Book the room for the open evening',
        status: 'waiting',
        dueInDays: 4,
        assignees: [priya.id],
        description: '<p>Waiting for the venue to confirm the date.</p>',
      },
      {
        title: 'Post the open evening on social media',
        status: 'todo',
        dueInDays: 6,
        assignees: [sam.id],
        waitsOn: ['Book the room for the open evening'],
      },
      { title: 'Print flyers', status: 'cancelled', dueInDays: 3, assignees: [sam.id], priority: 'low' },
      { title: 'Report the results to the board', status: 'todo', dueInDays: 27, assignees: [dana, sam.id] },
    ];

    const website = await project({
      name: 'Website refresh',
      status: 'on_hold',
      startInDays: -60,
      dueInDays: 75,
      owner: dana,
      result: 'service',
      description:
        '<p>A clearer website: new member pages, an events calendar and faster pages on phones.</p>',
    });
    const websiteTasks: DemoTask[] = [
      { title: 'Survey members about the website', status: 'done', dueInDays: -45, assignees: [dana] },
      {
        title: 'Choose a web agency',
        status: 'done',
        dueInDays: -20,
        assignees: [dana, priya.id],
        checklist: [
          ['Brief three agencies', true],
          ['Compare quotes', true],
        ],
      },
      {
        title: 'Write the new member pages',
        status: 'in_progress',
        dueInDays: 12,
        assignees: [sam.id],
        checklist: [
          ['Joining', true],
          ['Benefits', false],
          ['Fees', false],
        ],
      },
      {
        title: 'Approve the design',
        status: 'waiting',
        dueInDays: 5,
        assignees: [dana],
        priority: 'high',
        comments: [[sam.id, 'The agency sent two options; @demo.staff please pick one by Friday.']],
      },
      {
        title: 'Launch the new website',
        status: 'todo',
        dueInDays: 75,
        assignees: [dana, sam.id, priya.id],
        priority: 'high',
        waitsOn: ['Approve the design', 'Write the new member pages'],
      },
    ];

    const standalone: DemoTask[] = [
      {
        title: 'Monthly report to the board',
        status: 'todo',
        dueInDays: 0,
        time: '17:00',
        assignees: [dana],
        repeats: 'monthly',
        priority: 'high',
      },
      {
        title: 'Weekly check of the membership inbox',
        status: 'todo',
        dueInDays: 3,
        assignees: [sam.id],
        repeats: 'weekly',
      },
      {
        title: 'Renew the insurance policy',
        status: 'todo',
        dueInDays: -3,
        assignees: [dana],
        priority: 'urgent',
        contact: true,
      },
    ];

    const ids = new Map<string, number>();
    const plan: [number | null, DemoTask[]][] = [
      [conference, conferenceTasks],
      [drive, driveTasks],
      [website, websiteTasks],
      [null, standalone],
    ];
    let c = 0;
    for (const [projectId, list] of plan) {
      let order = 1;
      for (const t of list) {
        const id = await insertTask(
          tx,
          tenantId,
          projectId,
          order++,
          t,
          timeZone,
          t.contact ? contactOf(c++) : null,
        );
        ids.set(t.title, id);
      }
    }
    for (const [, list] of plan)
      for (const t of list)
        for (const on of t.waitsOn ?? [])
          await tx.execute(sql`
            insert into task_dependencies (tenant_id, task_id, depends_on_task_id)
            values (${tenantId}, ${ids.get(t.title) ?? 0}, ${ids.get(on) ?? 0})`);
    await refreshDerived(tx, tenantId);
  });
}

/** The calendar day `days` from `today` (YYYY-MM-DD). */
function relativeDay(today: string, days: number): string {
  return zonedDate(relativeDueAt(today, days, '12:00', 'UTC'), 'UTC');
}

/**
 * The demo conference's tasks belong to the conference event as well as to its project, so the event's Tasks tab
 * shows them; the conference project names its event and the membership drive its membership type (run once the
 * events are seeded).
 */
export async function linkDemoTasksToEvents(db: Db, tenantId: string): Promise<void> {
  await withTenantTx(db, { tenantId }, async (tx) => {
    await tx.execute(sql`
      update tasks t set event_id = e.event_id, event_name = e.name
        from projects p, (select event_id, name from events where name ilike '%conference%'
                           order by event_id limit 1) e
       where t.tenant_id = ${tenantId} and p.tenant_id = t.tenant_id and p.project_id = t.project_id
         and p.name ilike '%conference%'`);
    await tx.execute(sql`
      update projects p set related_type = 'event', related_event_id = e.event_id, related_event_name = e.name,
                            related_name = null
        from (select event_id, name from events where name ilike '%conference%' order by event_id limit 1) e
       where p.tenant_id = ${tenantId} and p.name ilike '%conference%'`);
    // The membership drive is for the individual membership type.
    await tx.execute(sql`
      update projects p set related_membership_type_id = m.membership_type_id,
                            related_membership_type_name = m.name, related_name = null
        from (select membership_type_id, name from membership_types where name ilike '%individual%'
               order by membership_type_id limit 1) m
       where p.tenant_id = ${tenantId} and p.related_type = 'membershipType'`);
  });
}
