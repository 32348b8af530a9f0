import { z } from 'zod';
import { email, newPassword } from './common';
import { PASSWORD_MAX } from './constants';
import { INVALID_LINK } from './messages';

export const login = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(254, 'Username is too long'),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX, 'The username or password you entered is incorrect.'),
});
export type LoginInput = z.input<typeof login>;

/** The admin login form says one thing for any missing field. */
export const adminLoginForm = z.object({
  username: z.string().trim().min(1, 'Please fill in all fields'),
  password: z.string().min(1, 'Please fill in all fields'),
});

const token = z.string({ error: 'Token is required' }).trim().min(1, 'Token is required').max(200, INVALID_LINK);

export const setupPassword = z.object({ token, password: newPassword() });
export type SetupPasswordInput = z.input<typeof setupPassword>;

/** An emailed link's token alone: asked when its page opens (issue 36). */
export const linkTokenInput = z.object({ token });

/** The confirmation field of a new password's form, and its rule (the set-up and invitation pages). */
export const confirmPassword = () => z.string().min(6, 'Please confirm your password').max(PASSWORD_MAX);
export const samePasswords = {
  check: (v: { password: string; confirmPassword: string }) => v.password === v.confirmPassword,
  issue: { message: "Passwords don't match", path: ['confirmPassword'] },
};

export const setupPasswordForm = z
  .object({
    token,
    password: newPassword(),
    confirmPassword: confirmPassword(),
  })
  .refine(samePasswords.check, samePasswords.issue);

export const resetPassword = z.object({ email: email('Valid email is required') });
export type ResetPasswordInput = z.input<typeof resetPassword>;

export const requestNewLink = resetPassword;
