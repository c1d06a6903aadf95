/**
 * The demo association's files and images: a library with folders of governance papers, newsletters and event
 * photos, the association's logo, photos on a dozen contacts and documents in their files. Everything goes through
 * the product's own API (uploads are checked, images normalised and cropped by the server, search documents
 * written), so the demo holds exactly what a user's uploads would make. The caller signs in as the demo staff user
 * and passes a function that sends requests to the app.
 */

export interface DemoAnswer {
  status: number;
  json: unknown;
}

/** Sends one request as the signed-in demo staff user: a JSON body, or a multipart form for uploads. */
export type DemoApi = (
  method: 'GET' | 'POST',
  url: string,
  body?: FormData | Record<string, unknown>,
) => Promise<DemoAnswer>;

interface Entry {
  Id: number;
}

async function ok<T>(answer: Promise<DemoAnswer>, what: string): Promise<T> {
  const a = await answer;
  if (a.status >= 300) throw new Error(`Demo files: ${what} answered ${a.status} ${JSON.stringify(a.json)}`);
  return a.json as T;
}

function form(name: string, bytes: Uint8Array, type: string): FormData {
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return f;
}

/** A one-page PDF with a title and lines of text (Helvetica, the PDF's own font: ASCII text only). */
export function simplePdf(title: string, lines: readonly string[]): Uint8Array {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
  const body = [
    'BT /F1 20 Tf 72 740 Td',
    `(${esc(title)}) Tj`,
    '/F1 11 Tf 0 -34 Td 15 TL',
    ...lines.map((l) => `(${esc(l)}) '`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

const xml = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The association's logo: a shield with its initials beside its name. */
async function logoPng(name: string): Promise<Uint8Array> {
  const initials = name
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="240" viewBox="0 0 720 240">
    <rect width="720" height="240" fill="#ffffff"/>
    <path d="M40 30 h150 v90 c0 60 -45 90 -75 100 c-30 -10 -75 -40 -75 -100 z" fill="#1c4e80"/>
    <text x="115" y="140" font-family="DejaVu Sans, sans-serif" font-size="64" font-weight="700" fill="#f2c14e" text-anchor="middle">${xml(initials)}</text>
    <text x="220" y="135" font-family="DejaVu Sans, sans-serif" font-size="46" font-weight="700" fill="#1c4e80">${xml(name)}</text>
    <text x="222" y="180" font-family="DejaVu Sans, sans-serif" font-size="22" fill="#5b6b7b">Members since 1987</text>
  </svg>`;
  return new Uint8Array(await (await import('sharp')).default(Buffer.from(svg)).png().toBuffer());
}

/** A photo-like picture of an event: a room with a stage, rows of seats and a caption on a banner. */
async function eventJpeg(caption: string, hue: number): Promise<Uint8Array> {
  const seats = Array.from({ length: 6 }, (_, row) =>
    Array.from(
      { length: 12 },
      (_, i) =>
        `<circle cx="${120 + i * 88 + (row % 2) * 30}" cy="${520 + row * 42}" r="${14 + row * 2}" fill="hsl(${(hue + i * 23) % 360},45%,${35 + row * 5}%)"/>`,
    ).join(''),
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue},35%,22%)"/><stop offset="1" stop-color="hsl(${hue},30%,55%)"/>
    </linearGradient></defs>
    <rect width="1200" height="800" fill="url(#g)"/>
    <rect x="250" y="150" width="700" height="260" rx="12" fill="hsl(${hue},20%,92%)"/>
    <text x="600" y="300" font-family="DejaVu Sans, sans-serif" font-size="48" font-weight="700" fill="hsl(${hue},40%,25%)" text-anchor="middle">${xml(caption)}</text>
    <rect x="180" y="420" width="840" height="40" fill="hsl(${hue},25%,30%)"/>
    ${seats}
  </svg>`;
  return new Uint8Array(
    await (await import('sharp')).default(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer(),
  );
}

/** A portrait placeholder: a head and shoulders on a coloured background, with the person's initials. */
async function portraitJpeg(initials: string, hue: number): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">
    <rect width="600" height="600" fill="hsl(${hue},45%,80%)"/>
    <circle cx="300" cy="240" r="120" fill="hsl(${(hue + 20) % 360},30%,45%)"/>
    <ellipse cx="300" cy="600" rx="220" ry="170" fill="hsl(${(hue + 20) % 360},30%,40%)"/>
    <text x="300" y="262" font-family="DejaVu Sans, sans-serif" font-size="72" font-weight="700" fill="#ffffff" text-anchor="middle">${xml(initials)}</text>
  </svg>`;
  return new Uint8Array(
    await (await import('sharp')).default(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer(),
  );
}

const text = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

export interface DemoFilesInput {
  associationName: string;
  /** Contacts that get a photo and a document in their files: id and name, in the order they should appear. */
  contacts: readonly { id: number; firstName: string; lastName: string }[];
}

/** Seeds the library, the logo, the event gallery, contacts' photos and files, and the conference's files. */
export async function seedDemoFiles(call: DemoApi, input: DemoFilesInput): Promise<void> {
  const folder = (Name: string, FolderId?: number) =>
    ok<Entry>(call('POST', '/api/files/folder', { Name, FolderId: FolderId ?? null }), `folder ${Name}`);
  const upload = (name: string, bytes: Uint8Array, type: string, query = '') =>
    ok<unknown>(call('POST', `/api/files/upload${query}`, form(name, bytes, type)), `upload ${name}`);
  const image = (usage: number, source: number, name: string, bytes: Uint8Array, query = '') =>
    ok<unknown>(
      call('POST', `/api/images/Upload/${usage}/${source}${query}`, form(name, bytes, 'image/jpeg')),
      `image ${name}`,
    );
  const year = new Date().getFullYear();

  await image(1, 0, 'logo.png', await logoPng(input.associationName));

  const governance = await folder('Governance');
  await upload(
    `Bylaws ${year}.pdf`,
    simplePdf(`${input.associationName}: Bylaws`, [
      'Article I. Name. The name of this organisation is ' + input.associationName + '.',
      'Article II. Purpose. To advance the profession and serve its members.',
      'Article III. Membership. Individual, student and organisational members in good standing.',
      'Article IV. Dues. Set by the board each year and payable on the anniversary of joining.',
      'Article V. Board of Directors. Nine directors elected by the members for three-year terms.',
      'Article VI. Meetings. An annual meeting of the members; the board meets at least quarterly.',
      'Article VII. Amendments. By two thirds of the votes cast at an annual meeting.',
    ]),
    'application/pdf',
    `?folderId=${governance.Id}`,
  );
  const minutes = await folder('Board minutes', governance.Id);
  for (const [month, item] of [
    ['January', 'Approved the budget and the dues schedule for the year.'],
    ['April', 'Reviewed the membership drive; 48 new members since January.'],
    ['July', 'Chose the venue of the annual conference; approved two new chapters.'],
    ['October', 'Nominations committee report; renewal campaign results.'],
  ] as const) {
    await upload(
      `Board minutes ${month} ${year}.txt`,
      text(
        `${input.associationName}\nMinutes of the board meeting, ${month} ${year}\n\nPresent: the president, the treasurer, the secretary and five directors.\n\n1. The minutes of the previous meeting were approved.\n2. ${item}\n3. Any other business: none.\n\nThe meeting closed at 8:40 pm.\n`,
      ),
      'text/plain',
      `?folderId=${minutes.Id}`,
    );
  }
  await upload(
    `Annual report ${year - 1}.pdf`,
    simplePdf(`Annual report ${year - 1}`, [
      'A year of growth: membership up 9 percent, retention at 86 percent.',
      'Twelve chapter meetings, four webinars and the annual conference with 310 attendees.',
      'Finances: dues 64 percent of revenue, events 28 percent, sponsorship 8 percent.',
      'Thank you to our volunteers, sponsors and members.',
    ]),
    'application/pdf',
    `?folderId=${governance.Id}`,
  );

  const newsletters = await folder('Newsletters');
  for (const season of ['Spring', 'Summer', 'Autumn']) {
    await upload(
      `${season} ${year} newsletter.pdf`,
      simplePdf(`${input.associationName} news, ${season} ${year}`, [
        'From the president: thank you for renewing; our community keeps growing.',
        'Chapter news: new meeting places and the speakers of the season.',
        'Member spotlight: three members on what the association means to them.',
        'Upcoming: the annual conference, webinars and the volunteer day.',
      ]),
      'application/pdf',
      `?folderId=${newsletters.Id}`,
    );
  }

  const photos = await folder('Event photos');
  const scenes = [
    ['Annual Conference keynote', 210],
    ['Chapter meeting', 140],
    ['Awards dinner', 20],
    ['Volunteer day', 100],
    ['Webinar studio', 260],
  ] as const;
  const photoOf = new Map<string, number>();
  for (const [caption, hue] of scenes) {
    const name = `${caption}.jpg`;
    const made = await image(3, 0, name, await eventJpeg(caption, hue), `?folderId=${photos.Id}`);
    photoOf.set(caption, (made as { FileId: number }).FileId);
  }
  // The events' own images (their image field), chosen from those photos: the conference, the chapter meetings and
  // the webinars show one in the events list, on their pages and in the calendar's agenda.
  const eventImages: [string, string][] = [
    ['Annual Conference 2027', 'Annual Conference keynote'],
    ['Chapter meeting', 'Chapter meeting'],
    ['Webinar: Governance for new board members', 'Webinar studio'],
    ['Webinar: Dues and budgeting', 'Webinar studio'],
    ['Members’ networking breakfast', 'Awards dinner'],
  ];
  for (const [eventName, caption] of eventImages) {
    const found = await ok<{ Results: { EventId: number }[] }>(
      call('POST', '/api/events/events/eventData?$top=5', {
        Id: 9999,
        Criteria: [{ PropertyName: 'Name', Operator: 'eq', Value: eventName }],
      }),
      `event ${eventName}`,
    );
    for (const e of found.Results) {
      const got = await ok<{ Data?: Record<string, unknown> } & Record<string, unknown>>(
        call('POST', '/api/events/events/eventGet', { id: e.EventId }),
        `event ${eventName}`,
      );
      await ok(
        call('POST', '/api/events/events/eventSave', {
          ...(got.Data ?? got),
          ImageFileId: photoOf.get(caption),
        }),
        `image of ${eventName}`,
      );
    }
  }

  const forms = await folder('Forms and templates');
  await upload(
    'Membership application.pdf',
    simplePdf('Membership application', [
      'Name: ____________________________   Email: ____________________________',
      'Organisation: ______________________   Phone: ____________________________',
      'Membership type:  [ ] Individual   [ ] Student   [ ] Organisation',
      'Signature: _________________________   Date: _____________',
    ]),
    'application/pdf',
    `?folderId=${forms.Id}`,
  );
  await upload(
    'Speaker guidelines.txt',
    text(
      'Speaker guidelines\n\nSessions run 45 minutes with 15 minutes of questions.\nSend your slides two days before.\n',
    ),
    'text/plain',
    `?folderId=${forms.Id}`,
  );

  // The annual conference's files: its budget on the project, the venue contract on its "Book the venue" task.
  const find = async (path: string, search: string) => {
    const page = await ok<{ Results: Record<string, unknown>[] }>(
      call('POST', `/api/tasks/${path}?$top=5&$skip=0`, { SearchText: search }),
      `find ${search}`,
    );
    return page.Results[0];
  };
  const conference = await find('projects/projectData', 'Annual conference');
  if (conference)
    await upload(
      'Conference budget.txt',
      text('Conference budget\n\nVenue 18,500\nCatering 12,000\nSpeakers 6,000\nPrint and badges 1,500\n'),
      'text/plain',
      `?projectId=${String(conference.ProjectId)}`,
    );
  const venue = await find('tasks/taskData', 'Book the venue');
  if (venue)
    await upload(
      'Venue contract.pdf',
      simplePdf('Venue contract', [
        `Between ${input.associationName} and the Lakeside Convention Centre.`,
        'Main hall for 400 seated, three breakout rooms, two days.',
        'Deposit of 30 percent on signature; the balance 30 days before the event.',
      ]),
      'application/pdf',
      `?taskId=${String(venue.TaskId)}`,
    );

  for (const [i, c] of input.contacts.entries()) {
    const initials = `${c.firstName[0] ?? ''}${c.lastName[0] ?? ''}`.toUpperCase();
    await image(2, c.id, `${c.firstName} ${c.lastName}.jpg`, await portraitJpeg(initials, (i * 47) % 360));
    if (i < 6)
      await upload(
        'Membership application.pdf',
        simplePdf(`Membership application: ${c.firstName} ${c.lastName}`, [
          `Applicant: ${c.firstName} ${c.lastName}`,
          'Membership type: Individual',
          'Received and approved by the membership committee.',
        ]),
        'application/pdf',
        `?contactId=${c.id}`,
      );
  }
}
