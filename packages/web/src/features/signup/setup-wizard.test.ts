import { describe, expect, it } from 'vitest';
import { startingStep } from './setup-wizard.tsx';

describe('the setup wizard’s starting step', () => {
  it('starts at the form unless forceStep names a step', () => {
    expect(startingStep(null)).toEqual({ step: 0, forced: false });
    expect(startingStep('2')).toEqual({ step: 2, forced: true });
    expect(startingStep('0')).toEqual({ step: 0, forced: true });
    expect(startingStep('3')).toEqual({ step: 3, forced: true });
  });
  it('ignores a forceStep that is no step', () => {
    for (const v of ['4', '-1', 'two', '', '1.5'])
      expect(startingStep(v)).toEqual({ step: 0, forced: false });
  });
});
