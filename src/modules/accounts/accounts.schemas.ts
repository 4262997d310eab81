import { z } from '../../platform/kernel/zod';
import { credential } from '../../platform/ops/redaction';
import { PASSWORD_MAX } from './passwords';

// The staff account pages' query strings, paths and forms.

const text = (max: number) => z.string().max(max);

export const SignInQuery = z.object({
  next: text(2000).optional(),
  ended: text(40).optional(),
  signedOut: z.literal('1').optional(),
});
export const SignInForm = z.object({
  _csrf: text(300),
  email: text(1000),
  password: text(PASSWORD_MAX * 4),
  organisationId: text(100).optional(),
  next: text(2000).optional(),
});
export const ForgotForm = z.object({ _csrf: text(300), email: text(1000) });
export const TokenParams = z.object({
  token: credential(
    z
      .string()
      .max(200)
      .meta({
        param: { name: 'token', in: 'path' },
        description: 'The password link’s token: a credential, never logged',
      }),
    'password link',
  ),
});
export const PasswordForm = z.object({
  _csrf: text(300),
  username: text(1000).optional(),
  password: text(PASSWORD_MAX * 4),
  confirm: text(PASSWORD_MAX * 4),
});
