import { describe, expect, it } from 'vitest';
import { detectEntryType } from './entry.rules.ts';

describe('entry type detection (spec 001 §5)', () => {
  it.each([
    ['jane.doe@example.org', 'email'],
    ['  JANE+dues@Chapter.Example.ORG ', 'email'],
    ['+1 (555) 123-4567', 'phone'],
    ['555.123.4567', 'phone'],
    ['5551234567', 'phone'],
    ['+44 20 7946 0958', 'phone'],
    ['1234567890123456789012345', 'phone'],
    ['12345678901234567890123456', 'unknown'],
    ['www.example.org', 'website'],
    ['https://example.org/events?id=3', 'website'],
    ['ftp://files.example.org', 'website'],
    ['example.org:8080/path', 'website'],
    ['jane@', 'unknown'],
    ['hello world', 'unknown'],
    ['()', 'unknown'],
    ['+', 'unknown'],
    ['', 'unknown'],
    [null, 'unknown'],
  ])(
    '"email if it matches the email pattern; phone if ... at most 25 characters; website if it matches a URL pattern": %j -> %s',
    (value, expected) => {
      expect(detectEntryType(value)).toBe(expected);
    },
  );
});
