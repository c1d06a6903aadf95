import { describe, expect, it } from 'vitest';
import { joinErrorsMap, joinWithCommas, validationResult } from './messages.rules.ts';

describe('server messages (spec 000 §5)', () => {
  it('"shows the server\'s messages joined by commas"', () => {
    expect(joinWithCommas(['Enter an email address.', ' ', 'Too long.'])).toBe(
      'Enter an email address., Too long.',
    );
    expect(joinWithCommas([])).toBe('');
  });

  it('"A server 400 with an errors map shows the messages joined."', () => {
    expect(
      joinErrorsMap({
        Email: ['Enter an email address.'],
        Name: ['Too long.', 'Enter an email address.'],
        X: 'One',
      }),
    ).toBe('Enter an email address.\nToo long.\nOne');
    expect(joinErrorsMap(null)).toBe('');
    expect(joinErrorsMap({ A: ['  '] })).toBe('');
  });

  it('builds {Valid, ErrorMessages}', () => {
    expect(validationResult([])).toEqual({ Valid: true, ErrorMessages: [] });
    expect(validationResult(['x'])).toEqual({ Valid: false, ErrorMessages: ['x'] });
  });
});
