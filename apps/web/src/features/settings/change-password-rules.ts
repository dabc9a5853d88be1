import { CHANGE_PASSWORD_MIN_LENGTH } from '@spyglass/protocol';

/**
 * Spec 000 §5, "Change password (settings)": the dialog's own rules, not the shared checker of
 * sign-up (8 characters here, 10 there). The first problem found, or null.
 */
export function changePasswordProblem(current: string, next: string, confirm: string): string | null {
  if (!current) return 'Current password is required';
  if (next.length < CHANGE_PASSWORD_MIN_LENGTH) return `Password must be at least ${CHANGE_PASSWORD_MIN_LENGTH} characters long`;
  if (next !== confirm) return 'New passwords do not match';
  return null;
}
