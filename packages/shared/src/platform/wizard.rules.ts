/**
 * A step of a wizard dialog (spec 000 section 4: "a step may have a show-condition, hide-previous,
 * disable-previous and hide-navigation flags"). `hidePrevious` and `disablePrevious` act on this step's
 * Previous button; `hideNavigation` hides both buttons (the step moves on by itself, e.g. a progress step).
 */
export interface WizardStep<M = unknown> {
  key: string;
  showCondition?: boolean | ((model: M) => boolean) | null;
  hidePrevious?: boolean | null;
  disablePrevious?: boolean | null;
  hideNavigation?: boolean | null;
  /** The step has a completion action, run when the user moves on from it. */
  hasCompletionAction?: boolean | null;
  /** The step has a setup action, run when the wizard arrives at it. */
  hasSetupAction?: boolean | null;
}

export function isStepVisible<M>(step: WizardStep<M>, model: M): boolean {
  const condition = step.showCondition;
  if (condition === null || condition === undefined) return true;
  return typeof condition === 'function' ? condition(model) : condition;
}

/** The index of the next visible step after `current`, or null when there is none. */
export function nextVisibleStep<M>(
  steps: readonly WizardStep<M>[],
  current: number,
  model: M,
): number | null {
  for (let index = current + 1; index < steps.length; index++) {
    const step = steps[index];
    if (step && isStepVisible(step, model)) return index;
  }
  return null;
}

/** "Previous goes to the nearest earlier visible step." Null when there is none. */
export function previousVisibleStep<M>(
  steps: readonly WizardStep<M>[],
  current: number,
  model: M,
): number | null {
  for (let index = Math.min(current, steps.length) - 1; index >= 0; index--) {
    const step = steps[index];
    if (step && isStepVisible(step, model)) return index;
  }
  return null;
}

/** The first visible step, where a wizard opens; null when no step is visible. */
export function firstVisibleStep<M>(steps: readonly WizardStep<M>[], model: M): number | null {
  return nextVisibleStep(steps, -1, model);
}

export type WizardAction = { kind: 'complete'; step: number } | { kind: 'setup'; step: number };

export type WizardTransition =
  | { type: 'blocked'; reason: 'invalid' | 'no-step' }
  | { type: 'move'; from: number; to: number; actions: WizardAction[] }
  | { type: 'finish'; from: number; actions: WizardAction[] };

/**
 * Next (spec 000 section 4): "allowed only if the current step form is valid and a later visible step exists
 * (or the step is the last). Moving on runs an optional completion action for the current step, then an
 * optional setup action for the target step. After the last step the dialog finishes." The last step is the last
 * visible one. The answer lists the actions to run, in order.
 */
export function planNext<M>(
  steps: readonly WizardStep<M>[],
  current: number,
  model: M,
  formValid: boolean,
): WizardTransition {
  const step = steps[current];
  if (!step) return { type: 'blocked', reason: 'no-step' };
  if (!formValid) return { type: 'blocked', reason: 'invalid' };
  const actions: WizardAction[] = step.hasCompletionAction ? [{ kind: 'complete', step: current }] : [];
  const target = nextVisibleStep(steps, current, model);
  if (target === null) return { type: 'finish', from: current, actions };
  if (steps[target]?.hasSetupAction) actions.push({ kind: 'setup', step: target });
  return { type: 'move', from: current, to: target, actions };
}

/** Previous: to the nearest earlier visible step, unless this step hides or disables it. */
export function planPrevious<M>(
  steps: readonly WizardStep<M>[],
  current: number,
  model: M,
): WizardTransition {
  const step = steps[current];
  const target = previousVisibleStep(steps, current, model);
  if (!step || target === null || step.hidePrevious || step.disablePrevious || step.hideNavigation) {
    return { type: 'blocked', reason: 'no-step' };
  }
  return { type: 'move', from: current, to: target, actions: [] };
}

export interface WizardNavigation {
  showPrevious: boolean;
  enablePrevious: boolean;
  showNext: boolean;
  enableNext: boolean;
  /** The current step is the last visible one: Next reads Finish. */
  isLast: boolean;
}

/** What the wizard's buttons show for the current step. */
export function wizardNavigation<M>(
  steps: readonly WizardStep<M>[],
  current: number,
  model: M,
  formValid: boolean,
): WizardNavigation {
  const step = steps[current];
  const hidden = !step || Boolean(step.hideNavigation);
  const hasPrevious = previousVisibleStep(steps, current, model) !== null;
  return {
    showPrevious: !hidden && hasPrevious && !step?.hidePrevious,
    enablePrevious: planPrevious(steps, current, model).type === 'move',
    showNext: !hidden,
    enableNext: planNext(steps, current, model, formValid).type !== 'blocked',
    isLast: nextVisibleStep(steps, current, model) === null,
  };
}

/** The account setup wizard's steps (spec 001 section 2: "Steps 0 (form), 1 (creating), 2 (success, gives a url),
 * 3 (failure)"). */
export const SETUP_WIZARD_STEPS = { Form: 0, Creating: 1, Success: 2, Failure: 3 } as const;
export type SetupWizardStep = (typeof SETUP_WIZARD_STEPS)[keyof typeof SETUP_WIZARD_STEPS];

/** "A forceStep query parameter overrides the starting step; when forceStep is set the form is not sent." */
export function initialSetupStep(forceStep: string | number | null | undefined): {
  step: SetupWizardStep;
  sendForm: boolean;
} {
  const forced =
    forceStep === null || forceStep === undefined || forceStep === '' ? Number.NaN : Number(forceStep);
  if ([0, 1, 2, 3].includes(forced)) return { step: forced as SetupWizardStep, sendForm: false };
  return { step: SETUP_WIZARD_STEPS.Form, sendForm: true };
}

/** "If the response has success=true it becomes 2; otherwise, or on an HTTP error, it becomes 3." */
export function setupStepAfterResponse(
  response: { success?: boolean | null } | null | undefined,
): SetupWizardStep {
  return response?.success === true ? SETUP_WIZARD_STEPS.Success : SETUP_WIZARD_STEPS.Failure;
}
