import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkSignupModel,
  FALLBACK_SIGNUP_TIMEZONE,
  isTrialOver,
  signupSlug,
  TRIAL_DAYS,
  trialDaysLeft,
  trialEndsAt,
  weakPasswordReason,
} from './signup.rules.ts';

const good = {
  AssociationName: '  Riverside   Rowing Club ',
  Name: 'Ada Lovelace',
  Email: ' ada@example.org ',
  NewUsername: 'ada.l',
  NewPassword: 'correct horse battery',
  browserTimeZone: 'Europe/London',
};

describe('checkSignupModel', () => {
  it('cleans a good model', () => {
    expect(checkSignupModel(good)).toEqual({
      ok: true,
      value: {
        associationName: 'Riverside Rowing Club',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.org',
        username: 'ada.l',
        password: 'correct horse battery',
        timezone: 'Europe/London',
      },
    });
  });

  it('falls back to UTC for an unknown or missing browser timezone', () => {
    for (const browserTimeZone of ['Mars/Olympus', null, undefined, '']) {
      const r = checkSignupModel({ ...good, browserTimeZone });
      expect(r.ok && r.value.timezone).toBe(FALLBACK_SIGNUP_TIMEZONE);
    }
  });

  it('names every wrong field, in the form’s order', () => {
    const r = checkSignupModel({
      AssociationName: 'A',
      Name: 'Cher',
      Email: 'nope',
      NewUsername: 'x',
      NewPassword: 'short',
    });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(Object.keys(r.errors)).toEqual([
        'AssociationName',
        'Name',
        'Email',
        'NewUsername',
        'NewPassword',
      ]);
  });

  it.each([
    ['password123', 'most common'],
    ['aaaaaaaaaaaa', 'different characters'],
    ['ada.l-rows-2026', 'username'],
    ['lovelace-rows-2026', 'username, email address or name'],
  ])('refuses the weak password %s', (NewPassword, message) => {
    const r = checkSignupModel({ ...good, NewPassword });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.NewPassword?.[0]).toContain(message);
  });
});

describe('weakPasswordReason', () => {
  it('accepts long passwords of many characters that hold nothing personal', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 12, maxLength: 40 }), (p) => {
        fc.pre(new Set(p.toLowerCase()).size > 2);
        expect(weakPasswordReason(`${p}Qz9`, [])).toBeNull();
      }),
    );
  });
  it('ignores personal parts shorter than 3 characters', () => {
    expect(weakPasswordReason('my-jo-password-x', ['jo', null, undefined, ''])).toBeNull();
  });
});

describe('the trial', () => {
  it('ends TRIAL_DAYS after the sign-up, and the association is read-only from then on', () => {
    const start = new Date('2026-03-01T10:00:00Z');
    const end = trialEndsAt(start);
    expect(end.toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(TRIAL_DAYS).toBe(30);
    expect(isTrialOver(end.toISOString(), new Date('2026-03-31T09:59:59Z'))).toBe(false);
    expect(isTrialOver(end.toISOString(), end)).toBe(true);
    expect(isTrialOver(null, end)).toBe(false);
    expect(isTrialOver(undefined, end)).toBe(false);
    expect(isTrialOver('not a date', end)).toBe(false);
    expect(trialDaysLeft(end.toISOString(), start)).toBe(30);
    expect(trialDaysLeft(end.toISOString(), new Date('2026-04-02T00:00:00Z'))).toBe(0);
  });
  it('days left never grow as time passes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 * 86_400_000 }),
        fc.integer({ min: 0, max: 86_400_000 }),
        (a, step) => {
          const end = '2026-03-31T10:00:00.000Z';
          const t0 = Date.parse('2026-03-01T10:00:00Z') + a;
          expect(trialDaysLeft(end, new Date(t0 + step))).toBeLessThanOrEqual(
            trialDaysLeft(end, new Date(t0)),
          );
        },
      ),
    );
  });
});

describe('signupSlug', () => {
  it('makes a lower-case dashed slug with a suffix', () => {
    expect(signupSlug('Société Générale des Rameurs!', 'ab12cd34')).toBe(
      'societe-generale-des-rameurs-ab12cd34',
    );
    expect(signupSlug('!!!', 'ab12cd34')).toBe('association-ab12cd34');
    expect(signupSlug('x'.repeat(80), 's').length).toBe(42);
  });
  it('is always a safe address part', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        expect(signupSlug(name, 'abc')).toMatch(/^[a-z0-9-]+-abc$/);
      }),
    );
  });
});
