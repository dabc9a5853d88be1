import { describe, expect, it } from 'vitest';
import { allowedStep, nextStep, previousStep, stepFromHash } from './onboarding-steps';

describe('onboarding steps (spec 000 §2.4)', () => {
  it('reads the step from the hash, the welcome step for anything else', () => {
    expect(stepFromHash('#details')).toBe('details');
    expect(stepFromHash('#add-device')).toBe('add-device');
    expect(stepFromHash('')).toBe('welcome');
    expect(stepFromHash('#nope')).toBe('welcome');
  });

  it('keeps an unverified user at the verification step', () => {
    expect(allowedStep('details', false)).toBe('verify-email');
    expect(allowedStep('get-started', false)).toBe('verify-email');
    expect(allowedStep('welcome', false)).toBe('welcome');
    expect(allowedStep('details', true)).toBe('details');
  });

  it('walks the steps in order', () => {
    expect(nextStep('welcome')).toBe('verify-email');
    expect(nextStep('subscription')).toBe('add-device');
    expect(nextStep('get-started')).toBeNull();
    expect(previousStep('welcome')).toBeNull();
    expect(previousStep('details')).toBe('verify-email');
  });
});
