import { describe, expect, it } from 'vitest';
import { changePasswordProblems } from './change-password-rules';

describe('changePasswordProblems', () => {
  it('asks for the current password first', () => {
    expect(changePasswordProblems('', 'Secret-pass-1!', 'Secret-pass-1!')).toEqual(['Current password is required']);
  });

  it("lists every failed rule of sign-up, which cover the dialog's 8 characters", () => {
    expect(changePasswordProblems('old', 'aaaaaaaa', 'aaaaaaaa')).toEqual([
      'Password must be at least 10 characters long',
      'Password must contain at least one number',
      'Password must contain at least one special character',
    ]);
    expect(changePasswordProblems('old', 'Secret-pass-1!', 'Secret-pass-1!')).toEqual([]);
  });

  it('needs the confirmation to match', () => {
    expect(changePasswordProblems('old', 'Secret-pass-1!', 'Secret-pass-2!')).toEqual(['New passwords do not match']);
  });
});
