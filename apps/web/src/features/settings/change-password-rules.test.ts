import { describe, expect, it } from 'vitest';
import { changePasswordProblem } from './change-password-rules';

describe('changePasswordProblem', () => {
  it('asks for the current password first', () => {
    expect(changePasswordProblem('', 'abcdefgh', 'abcdefgh')).toBe('Current password is required');
  });

  it('needs 8 characters, not the 10 of sign-up', () => {
    expect(changePasswordProblem('old', 'abcdefg', 'abcdefg')).toBe('Password must be at least 8 characters long');
    expect(changePasswordProblem('old', 'abcdefgh', 'abcdefgh')).toBeNull();
  });

  it('needs the confirmation to match', () => {
    expect(changePasswordProblem('old', 'abcdefgh', 'abcdefgH')).toBe('New passwords do not match');
  });
});
