import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './status-page.tsx';

describe('maintenance window inputs', () => {
  it('round-trips an instant through the datetime-local value', () => {
    const iso = '2026-03-01T14:30:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
  });
  it('reads empty and invalid values as no time', () => {
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('not a date')).toBeNull();
  });
});
