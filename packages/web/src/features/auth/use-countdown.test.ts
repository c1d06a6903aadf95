import { describe, expect, it } from 'vitest';
import { formatWait } from './use-countdown.ts';

describe('formatWait', () => {
  it('speaks in seconds under a minute and in whole minutes (rounded up) above', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(45)).toBe('45 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(900)).toBe('15 minutes');
  });
});
