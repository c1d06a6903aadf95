import { describe, expect, it } from 'vitest';
import {
  firstVisibleStep,
  initialSetupStep,
  nextVisibleStep,
  planNext,
  planPrevious,
  previousVisibleStep,
  SETUP_WIZARD_STEPS,
  setupStepAfterResponse,
  type WizardStep,
  wizardNavigation,
} from './wizard.rules.ts';

interface Model {
  hasCompany: boolean;
}
const steps: WizardStep<Model>[] = [
  { key: 'contact', hasCompletionAction: true },
  { key: 'company', showCondition: (model) => model.hasCompany, hasSetupAction: true },
  { key: 'hidden', showCondition: false },
  { key: 'payment', disablePrevious: true, hasSetupAction: true },
  { key: 'processing', hideNavigation: true },
  { key: 'done', hidePrevious: true, showCondition: true },
];
const withCompany = { hasCompany: true };
const noCompany = { hasCompany: false };

describe('wizard dialog steps (spec 000 §4)', () => {
  it('finds visible neighbours: "Previous goes to the nearest earlier visible step"', () => {
    expect(firstVisibleStep(steps, withCompany)).toBe(0);
    expect(nextVisibleStep(steps, 0, withCompany)).toBe(1);
    expect(nextVisibleStep(steps, 0, noCompany)).toBe(3);
    expect(nextVisibleStep(steps, 5, noCompany)).toBeNull();
    expect(previousVisibleStep(steps, 3, withCompany)).toBe(1);
    expect(previousVisibleStep(steps, 3, noCompany)).toBe(0);
    expect(previousVisibleStep(steps, 0, noCompany)).toBeNull();
    expect(firstVisibleStep([{ key: 'x', showCondition: false }], null)).toBeNull();
  });

  it('"Next is allowed only if the current step form is valid"', () => {
    expect(planNext(steps, 0, withCompany, false)).toEqual({ type: 'blocked', reason: 'invalid' });
    expect(planNext(steps, 9, withCompany, true)).toEqual({ type: 'blocked', reason: 'no-step' });
  });

  it('"Moving on runs an optional completion action for the current step, then an optional setup action for the target step"', () => {
    expect(planNext(steps, 0, withCompany, true)).toEqual({
      type: 'move',
      from: 0,
      to: 1,
      actions: [
        { kind: 'complete', step: 0 },
        { kind: 'setup', step: 1 },
      ],
    });
    expect(planNext(steps, 0, noCompany, true)).toEqual({
      type: 'move',
      from: 0,
      to: 3,
      actions: [
        { kind: 'complete', step: 0 },
        { kind: 'setup', step: 3 },
      ],
    });
    expect(planNext(steps, 3, noCompany, true)).toEqual({ type: 'move', from: 3, to: 4, actions: [] });
  });

  it('"After the last step the dialog finishes."', () => {
    expect(planNext(steps, 5, noCompany, true)).toEqual({ type: 'finish', from: 5, actions: [] });
    const lastHidden: WizardStep<Model>[] = [
      { key: 'a', hasCompletionAction: true },
      { key: 'b', showCondition: false },
    ];
    expect(planNext(lastHidden, 0, noCompany, true)).toEqual({
      type: 'finish',
      from: 0,
      actions: [{ kind: 'complete', step: 0 }],
    });
  });

  it('hide-previous, disable-previous and hide-navigation act on the buttons', () => {
    expect(planPrevious(steps, 1, withCompany)).toEqual({ type: 'move', from: 1, to: 0, actions: [] });
    expect(planPrevious(steps, 0, withCompany)).toEqual({ type: 'blocked', reason: 'no-step' });
    expect(planPrevious(steps, 3, withCompany).type).toBe('blocked');
    expect(planPrevious(steps, 4, withCompany).type).toBe('blocked');
    expect(planPrevious(steps, 5, withCompany).type).toBe('blocked');
    expect(wizardNavigation(steps, 1, withCompany, true)).toEqual({
      showPrevious: true,
      enablePrevious: true,
      showNext: true,
      enableNext: true,
      isLast: false,
    });
    expect(wizardNavigation(steps, 3, withCompany, false)).toEqual({
      showPrevious: true,
      enablePrevious: false,
      showNext: true,
      enableNext: false,
      isLast: false,
    });
    expect(wizardNavigation(steps, 4, withCompany, true)).toMatchObject({
      showPrevious: false,
      showNext: false,
    });
    expect(wizardNavigation(steps, 5, withCompany, true)).toMatchObject({
      showPrevious: false,
      isLast: true,
    });
    expect(wizardNavigation(steps, 0, withCompany, true)).toMatchObject({
      showPrevious: false,
      isLast: false,
    });
    expect(wizardNavigation(steps, 7, withCompany, true)).toMatchObject({
      showNext: false,
      enableNext: false,
    });
  });
});

describe('account setup wizard (spec 001 §2, §4)', () => {
  it('"A forceStep query parameter overrides the starting step; when forceStep is set the form is not sent."', () => {
    expect(initialSetupStep(null)).toEqual({ step: 0, sendForm: true });
    expect(initialSetupStep('')).toEqual({ step: 0, sendForm: true });
    expect(initialSetupStep('2')).toEqual({ step: 2, sendForm: false });
    expect(initialSetupStep(3)).toEqual({ step: 3, sendForm: false });
    expect(initialSetupStep('9')).toEqual({ step: 0, sendForm: true });
  });

  it('"If the response has success=true it becomes 2; otherwise, or on an HTTP error, it becomes 3."', () => {
    expect(setupStepAfterResponse({ success: true })).toBe(SETUP_WIZARD_STEPS.Success);
    expect(setupStepAfterResponse({ success: false })).toBe(SETUP_WIZARD_STEPS.Failure);
    expect(setupStepAfterResponse(null)).toBe(3);
  });
});
