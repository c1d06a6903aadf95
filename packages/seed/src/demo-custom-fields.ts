/**
 * The Demo Association's custom fields on contacts (decision 0111): what a professional association asks its
 * members beyond name and address, on three pages with a branch (volunteers answer page 2, the others skip it), and
 * values for most contacts, spread deterministically by contact number.
 */
import { customFields, type Db, withTenantTx } from '@guildhall/db';
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { sql } from 'drizzle-orm';

interface DemoField {
  name: string;
  type: number;
  page: number;
  order: number;
  help?: string;
  visibility?: 'staff' | 'memberRead' | 'memberEdit';
  inDirectory?: boolean;
  searchable?: boolean;
  required?: boolean;
  choices?: { name: string; goTo?: number; other?: boolean }[];
}

const FIELDS: DemoField[] = [
  {
    name: 'Areas of interest',
    type: T.MultiChoice,
    page: 1,
    order: 1,
    help: 'What the member wants to hear about from us.',
    visibility: 'memberEdit',
    inDirectory: true,
    choices: [
      { name: 'Policy and advocacy' },
      { name: 'Training' },
      { name: 'Networking' },
      { name: 'Research' },
      { name: 'Mentoring' },
    ],
  },
  {
    name: 'Preferred chapter',
    type: T.Dropdown,
    page: 1,
    order: 2,
    visibility: 'memberEdit',
    inDirectory: true,
    choices: [{ name: 'North' }, { name: 'South' }, { name: 'East' }, { name: 'West' }, { name: 'Online' }],
  },
  { name: 'Years in the profession', type: T.Number, page: 1, order: 3, visibility: 'memberRead' },
  {
    name: 'How did you hear about us',
    type: T.DropdownWithFillIn,
    page: 1,
    order: 4,
    choices: [
      { name: 'A colleague' },
      { name: 'Conference' },
      { name: 'Search engine' },
      { name: 'Social media' },
      { name: 'Other', other: true },
    ],
  },
  {
    name: 'Willing to volunteer',
    type: T.YesNo,
    page: 1,
    order: 5,
    help: 'Volunteers are asked about their roles on the next page.',
    visibility: 'memberEdit',
    choices: [
      { name: 'Yes', goTo: 2 },
      { name: 'No', goTo: 3 },
    ],
  },
  {
    name: 'Volunteer roles',
    type: T.MultiChoice,
    page: 2,
    order: 1,
    visibility: 'memberEdit',
    choices: [
      { name: 'Event helper' },
      { name: 'Mentor' },
      { name: 'Committee member' },
      { name: 'Newsletter writer' },
    ],
  },
  { name: 'Hours a month', type: T.Number, page: 2, order: 2, visibility: 'memberEdit' },
  { name: 'Certified on', type: T.Date, page: 3, order: 1, visibility: 'memberRead' },
  {
    name: 'Dietary requirements',
    type: T.Text,
    page: 3,
    order: 2,
    help: 'For event catering.',
    visibility: 'memberEdit',
    searchable: true,
  },
  { name: 'Donation pledge', type: T.Currency, page: 3, order: 3 },
  {
    name: 'Board notes',
    type: T.MultiLineText,
    page: 3,
    order: 4,
    help: 'Staff only: never shown to members.',
  },
  { name: 'Certificate', type: T.FileUpload, page: 3, order: 5, visibility: 'memberRead' },
];

const DIETS = ['Vegetarian', 'Vegan', 'No nuts', 'Gluten free', 'Halal', 'Kosher', 'No pork'];
const NOTES = [
  'Offered to host the spring regional meeting.',
  'Prefers contact by email; asked not to be phoned.',
  'Former board member (2019-2022).',
  'Speaker at the annual conference last year.',
];

/** Adds the demo fields and their values to an association's contacts. */
export async function seedDemoCustomFields(db: Db, tenantId: string): Promise<void> {
  await withTenantTx(db, { tenantId }, async (tx) => {
    const ids: Record<string, number> = {};
    for (const f of FIELDS) {
      const choices = (f.choices ?? []).map((c, i) => ({
        Id: i + 1,
        Name: c.name,
        GoTo: c.goTo ?? null,
        DisableUpdate: Boolean(c.other),
        IsHidden: Boolean(c.other),
        isDeleted: false,
      }));
      const [row] = await tx
        .insert(customFields)
        .values({
          tenantId,
          entity: 'Contact',
          name: f.name,
          helpText: f.help ?? null,
          dataTypeId: f.type,
          required: f.required ?? false,
          pageNumber: f.page,
          sortOrder: f.order,
          visibility: f.visibility ?? 'staff',
          inDirectory: f.inDirectory ?? false,
          searchable: f.searchable ?? false,
          choices,
        })
        .returning({ id: customFields.customFieldId });
      if (row) ids[f.name] = row.id;
    }
    const id = (name: string) => ids[name] ?? 0;
    const live = sql`from contacts c where c.tenant_id = ${tenantId} and not c.is_deleted`;
    const insert = (field: string, columns: string, values: ReturnType<typeof sql>, where = sql`true`) =>
      tx.execute(sql`insert into custom_field_values (tenant_id, field_id, record_id, ${sql.raw(columns)})
        select c.tenant_id, ${id(field)}, c.contact_id, ${values} ${live} and ${where}`);
    await insert(
      'Areas of interest',
      'choice_ids',
      sql`array[(c.contact_id % 5) + 1, ((c.contact_id / 5) % 5) + 1]::bigint[]`,
      sql`c.contact_id % 6 <> 0 and (c.contact_id % 5) <> ((c.contact_id / 5) % 5)`,
    );
    await insert(
      'Preferred chapter',
      'choice_id',
      sql`(c.contact_id * 7 % 5) + 1`,
      sql`c.contact_id % 9 <> 0`,
    );
    await insert('Years in the profession', 'number_value', sql`(c.contact_id * 13 % 35) + 1`);
    await insert(
      'How did you hear about us',
      'choice_id',
      sql`(c.contact_id % 4) + 1`,
      sql`c.contact_id % 8 <> 0`,
    );
    await insert(
      'How did you hear about us',
      'choice_id, text_value',
      sql`5, 'Local newspaper'`,
      sql`c.contact_id % 8 = 0`,
    );
    await insert('Willing to volunteer', 'choice_id', sql`case when c.contact_id % 3 = 0 then 1 else 2 end`);
    await insert(
      'Volunteer roles',
      'choice_ids',
      sql`array[(c.contact_id % 4) + 1]::bigint[]`,
      sql`c.contact_id % 3 = 0`,
    );
    await insert('Hours a month', 'number_value', sql`(c.contact_id % 4 + 1) * 2`, sql`c.contact_id % 3 = 0`);
    await insert(
      'Certified on',
      'date_value',
      sql`date '2012-01-15' + ((c.contact_id * 97) % 4700)::int`,
      sql`c.contact_id % 4 <> 0`,
    );
    await insert(
      'Dietary requirements',
      'text_value',
      sql`(${sql.raw(`array[${DIETS.map((d) => `'${d}'`).join(',')}]`)})[(c.contact_id % ${DIETS.length}) + 1]`,
      sql`c.contact_id % 5 = 1`,
    );
    await insert(
      'Donation pledge',
      'number_value',
      sql`((c.contact_id % 10) + 1) * 2500`,
      sql`c.contact_id % 7 = 2`,
    );
    await insert(
      'Board notes',
      'text_value',
      sql`(${sql.raw(`array[${NOTES.map((d) => `'${d}'`).join(',')}]`)})[(c.contact_id % ${NOTES.length}) + 1]`,
      sql`c.contact_id % 23 = 4`,
    );
  });
}
