import { passwordProblems } from '@spyglass/protocol';

/**
 * The change-password dialog's checks, the server's own (ChangePasswordBody): the current password,
 * then every failed rule of sign-up (spec 000 §5; their 10 characters cover the dialog's 8), then
 * the confirmation. Empty when the form may be sent.
 */
export function changePasswordProblems(current: string, next: string, confirm: string): string[] {
  if (!current) return ['Current password is required'];
  const problems = passwordProblems(next);
  if (problems.length > 0) return problems;
  return next === confirm ? [] : ['New passwords do not match'];
}
