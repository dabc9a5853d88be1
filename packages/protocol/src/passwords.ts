import { PASSWORD_MIN_LENGTH, PASSWORD_SPECIAL_CHARACTERS } from './constants';

export const PASSWORD_MESSAGES = {
  length: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  number: 'Password must contain at least one number',
  special: 'Password must contain at least one special character',
} as const;

/**
 * The shared password checker of sign-up and reset (spec 000 §5): every failed rule, in order,
 * so the form can list them one per line. An empty list means the password is acceptable.
 */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(PASSWORD_MESSAGES.length);
  if (!/\d/.test(password)) problems.push(PASSWORD_MESSAGES.number);
  if (![...password].some((c) => PASSWORD_SPECIAL_CHARACTERS.includes(c))) problems.push(PASSWORD_MESSAGES.special);
  return problems;
}
