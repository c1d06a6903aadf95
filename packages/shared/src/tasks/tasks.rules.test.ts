import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cycleMessage,
  type DependencyEdge,
  dependencyCycle,
  dueState,
  hasCycle,
  isFinished,
  mentionsOf,
  nextOccurrence,
  offsetLabel,
  projectProgress,
  recurrenceLabel,
  relativeDueAt,
  reminderSubject,
  startRefusal,
  zonedDate,
} from './tasks.rules.ts';

const CHICAGO = 'America/Chicago';

describe('dependency cycles', () => {
  it.each([
    [[], { taskId: 1, dependsOn: 1 }, [1, 1]],
    [[], { taskId: 1, dependsOn: 2 }, null],
    [[{ taskId: 2, dependsOn: 1 }], { taskId: 1, dependsOn: 2 }, [1, 2, 1]],
    [
      [
        { taskId: 2, dependsOn: 3 },
        { taskId: 3, dependsOn: 1 },
      ],
      { taskId: 1, dependsOn: 2 },
      [1, 2, 3, 1],
    ],
    [
      [
        { taskId: 2, dependsOn: 3 },
        { taskId: 4, dependsOn: 1 },
      ],
      { taskId: 1, dependsOn: 2 },
      null,
    ],
  ] as [DependencyEdge[], DependencyEdge, number[] | null][])('%j + %j', (edges, edge, expected) => {
    expect(dependencyCycle(edges, edge)).toEqual(expected);
  });

  const edgeArb = fc.record({
    taskId: fc.integer({ min: 1, max: 8 }),
    dependsOn: fc.integer({ min: 1, max: 8 }),
  });

  it('never lets a cycle in: edges kept by the rule form no cycle, and a refused edge names a real one', () => {
    fc.assert(
      fc.property(fc.array(edgeArb, { maxLength: 40 }), (candidates) => {
        const kept: DependencyEdge[] = [];
        for (const e of candidates) {
          const chain = dependencyCycle(kept, e);
          if (chain === null) {
            kept.push(e);
            continue;
          }
          // The chain starts and ends at the waiting task, its first step is the new edge, every other step an edge kept.
          expect(chain[0]).toBe(e.taskId);
          expect(chain[chain.length - 1]).toBe(e.taskId);
          expect(chain[1]).toBe(e.dependsOn);
          for (let i = 1; i < chain.length - 1; i++)
            expect(kept.some((k) => k.taskId === chain[i] && k.dependsOn === chain[i + 1])).toBe(true);
        }
        expect(hasCycle(kept)).toBe(false);
      }),
    );
  });

  it('finds a cycle in any ring of tasks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), (n) => {
        const ring = Array.from({ length: n }, (_, i) => ({ taskId: i + 1, dependsOn: ((i + 1) % n) + 1 }));
        expect(hasCycle(ring)).toBe(true);
        expect(hasCycle(ring.slice(1))).toBe(false);
      }),
    );
  });

  it('says which tasks make the cycle', () => {
    const titles = new Map([
      [1, 'Draft'],
      [2, 'Approve'],
    ]);
    expect(cycleMessage([1, 2, 1], (id) => titles.get(id) ?? '')).toBe(
      'This dependency would make a cycle: "Draft" waits on "Approve", which waits on "Draft". Remove one of these dependencies first.',
    );
    expect(cycleMessage([1, 1], () => 'x')).toBe('A task cannot wait on itself.');
  });
});

describe('starting a task', () => {
  it.each([
    ['todo', [{ Title: 'A', Status: 'todo' }], null],
    ['waiting', [{ Title: 'A', Status: 'todo' }], null],
    ['in_progress', [], null],
    [
      'in_progress',
      [
        { Title: 'A', Status: 'done' },
        { Title: 'B', Status: 'cancelled' },
      ],
      null,
    ],
    [
      'in_progress',
      [{ Title: 'A', Status: 'todo' }],
      'This task cannot start before the tasks it waits on are done: "A".',
    ],
    [
      'done',
      [
        { Title: 'A', Status: 'todo' },
        { Title: 'B', Status: 'in_progress' },
        { Title: 'C', Status: 'waiting' },
        { Title: 'D', Status: 'todo' },
        { Title: 'E', Status: 'done' },
      ],
      'This task cannot start before the tasks it waits on are done: "A", "B", "C" and 1 more.',
    ],
  ])('%s with %j', (status, blockers, expected) => {
    expect(startRefusal(status, blockers)).toBe(expected);
  });

  it('counts done and cancelled as finished', () => {
    expect(['done', 'cancelled'].every(isFinished)).toBe(true);
    expect(['todo', 'in_progress', 'waiting', null].some(isFinished)).toBe(false);
  });
});

describe('progress', () => {
  it.each([
    [[], 0],
    [['cancelled'], 0],
    [['done', 'todo'], 50],
    [['done', 'todo', 'cancelled'], 50],
    [['done', 'done', 'in_progress'], 66],
    [['done'], 100],
  ])('%j is %i%%', (statuses, expected) => {
    expect(projectProgress(statuses)).toBe(expected);
  });

  it('stays between 0 and 100 and reaches 100 only when every counted task is done', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('todo', 'in_progress', 'waiting', 'done', 'cancelled')), (s) => {
        const p = projectProgress(s);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(100);
        const counted = s.filter((x) => x !== 'cancelled');
        expect(p === 100).toBe(counted.length > 0 && counted.every((x) => x === 'done'));
      }),
    );
  });
});

describe('dates in the association’s timezone', () => {
  it('places template tasks at local wall-clock times across daylight saving changes', () => {
    // 120 days before 10 November 2026 is 13 July (CDT, UTC-5); 10 November is CST (UTC-6).
    expect(relativeDueAt('2026-11-10', -120, '09:00', CHICAGO).toISOString()).toBe(
      '2026-07-13T14:00:00.000Z',
    );
    expect(relativeDueAt('2026-11-10', 0, '09:00', CHICAGO).toISOString()).toBe('2026-11-10T15:00:00.000Z');
    expect(relativeDueAt('2026-03-01', 7, '09:00', CHICAGO).toISOString()).toBe('2026-03-08T14:00:00.000Z');
    expect(relativeDueAt('2026-01-01', 0, '00:00', 'UTC').toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(() => relativeDueAt('10/11/2026', 0, '09:00', CHICAGO)).toThrow();
    expect(() => relativeDueAt('2026-11-10', 0, '9am', CHICAGO)).toThrow();
  });

  it('keeps the local time of any offset in any zone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -400, max: 400 }),
        fc.constantFrom(CHICAGO, 'Europe/London', 'Australia/Sydney', 'UTC'),
        fc.integer({ min: 6, max: 20 }),
        (offset, zone, hour) => {
          const time = `${String(hour).padStart(2, '0')}:30`;
          const at = relativeDueAt('2026-06-15', offset, time, zone);
          const local = new Intl.DateTimeFormat('en-GB', {
            timeZone: zone,
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          }).format(at);
          expect(local).toBe(time);
        },
      ),
    );
  });

  it('repeats a task at the same local time across the spring change', () => {
    const due = new Date('2026-03-02T15:00:00.000Z'); // 09:00 CST
    expect(nextOccurrence(due, 'weekly', 1, CHICAGO).toISOString()).toBe('2026-03-09T14:00:00.000Z');
    expect(nextOccurrence(due, 'daily', 7, CHICAGO).toISOString()).toBe('2026-03-09T14:00:00.000Z');
    expect(nextOccurrence(due, 'monthly', 1, CHICAGO).toISOString()).toBe('2026-04-02T14:00:00.000Z');
    expect(nextOccurrence(due, 'yearly', 1, CHICAGO).toISOString()).toBe('2027-03-02T15:00:00.000Z');
    expect(nextOccurrence(due, 'weekly', 0, CHICAGO).toISOString()).toBe('2026-03-09T14:00:00.000Z');
    // The 31st of a month falls on a shorter month's last day.
    expect(nextOccurrence(new Date('2026-01-31T15:00:00.000Z'), 'monthly', 1, CHICAGO).toISOString()).toBe(
      '2026-02-28T15:00:00.000Z',
    );
  });

  it('always moves a recurring task forward', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }),
        fc.constantFrom('daily', 'weekly', 'monthly', 'yearly' as const),
        fc.integer({ min: 1, max: 12 }),
        (due, freq, n) => {
          expect(nextOccurrence(due, freq, n, CHICAGO).getTime()).toBeGreaterThan(due.getTime());
        },
      ),
    );
  });

  it('tells how due a task is', () => {
    const now = new Date('2026-11-25T16:00:00.000Z'); // 10:00 in Chicago, a Wednesday
    expect(dueState(null, now, CHICAGO)).toBe('none');
    expect(dueState(new Date('2026-11-25T15:00:00.000Z'), now, CHICAGO)).toBe('overdue');
    expect(dueState(new Date('2026-11-26T05:00:00.000Z'), now, CHICAGO)).toBe('today'); // 23:00 local
    expect(dueState(new Date('2026-11-26T07:00:00.000Z'), now, CHICAGO)).toBe('thisWeek'); // 01:00 the next day
    expect(dueState(new Date('2026-12-02T20:00:00.000Z'), now, CHICAGO)).toBe('thisWeek');
    expect(dueState(new Date('2026-12-03T20:00:00.000Z'), now, CHICAGO)).toBe('later');
    expect(zonedDate(new Date('2026-11-26T05:00:00.000Z'), CHICAGO)).toBe('2026-11-25');
  });
});

describe('labels and mentions', () => {
  it('speaks offsets and recurrences', () => {
    expect(offsetLabel(-120)).toBe('120 days before');
    expect(offsetLabel(-1)).toBe('1 day before');
    expect(offsetLabel(0)).toBe('on the due date');
    expect(offsetLabel(3)).toBe('3 days after');
    expect(recurrenceLabel('weekly', 1)).toBe('Every week');
    expect(recurrenceLabel('monthly', 2)).toBe('Every 2 months');
    expect(recurrenceLabel(null, null)).toBe('Does not repeat');
  });

  it('finds each mention once, not inside an email address', () => {
    expect(mentionsOf('@Jane.Doe please ask @bob, and @jane.doe again; mail x@example.org')).toEqual([
      'jane.doe',
      'bob',
    ]);
    expect(mentionsOf('no mentions here')).toEqual([]);
    expect(mentionsOf('@a')).toEqual(['a']);
  });

  it('names the reminder by its counts', () => {
    expect(reminderSubject(2, 1)).toBe('Your tasks: 2 overdue, 1 due today');
    expect(reminderSubject(0, 3)).toBe('Your tasks: 3 due today');
  });
});
