// The sign-in provider form of Integrations → OAuth Providers: its fields, the admin API's input made from
// them, and what the form shows again after a refusal.

import { fieldPath } from '../../platform/http/validation';
import { AppError } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import { csrfInput } from './admin-pages';
import type { ProviderFormValues } from './pages/providers.pages';

const field = (max: number) => z.string().max(max).optional();
/** The add and change forms' fields, all optional text: the admin API's schemas judge them. */
export const ProviderForm = z.object({
  _csrf: csrfInput,
  type: field(20),
  name: field(1000),
  tenantId: field(1000),
  issuer: field(2000),
  clientId: field(2000),
  clientSecret: field(8000),
  enabled: field(10),
  allowedDomains: field(20_000),
  jitGroup: field(50),
  directorySync: field(10),
  directoryUrl: field(2000),
  groupMapping: field(20_000),
  syncNames: field(10),
});
export type ProviderForm = z.infer<typeof ProviderForm>;

const trimmed = (v: string | undefined) => {
  const t = v?.trim();
  return t ? t : undefined;
};
const lines = (v: string | undefined) =>
  (v ?? '')
    .split(/[\r\n,]+/)
    .map((l) => l.trim())
    .filter(Boolean);

/** `id = group` lines as a mapping (a line without `=` is kept whole, and refused by the schema). */
function mappingOf(text: string | undefined): Record<string, string> {
  const mapping: Record<string, string> = Object.create(null);
  for (const line of (text ?? '').split(/\r?\n/)) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    if (at < 0) mapping[line.trim()] = '';
    else mapping[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return mapping;
}

/** The form as the admin API's input: empty fields left out (kept, on a change). */
export function inputOf(form: ProviderForm, withDirectory: boolean) {
  return {
    ...(withDirectory
      ? {
          directorySync: form.directorySync === 'on',
          directoryUrl: trimmed(form.directoryUrl) ?? null,
          groupMapping: mappingOf(form.groupMapping),
          syncNames: form.syncNames === 'on',
        }
      : {}),
    ...(trimmed(form.name) ? { name: trimmed(form.name) } : {}),
    ...(trimmed(form.tenantId) ? { tenantId: trimmed(form.tenantId) } : {}),
    ...(trimmed(form.issuer) ? { issuer: trimmed(form.issuer) } : {}),
    ...(trimmed(form.clientId) ? { clientId: trimmed(form.clientId) } : {}),
    ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
    enabled: form.enabled === 'on',
    allowedDomains: lines(form.allowedDomains),
    jitGroup: trimmed(form.jitGroup) ?? null,
  };
}

/** What to show in the form again after a refusal: everything but the secret. */
export const valuesOf = (form: ProviderForm): ProviderFormValues => ({
  type: form.type,
  name: form.name,
  tenantId: form.tenantId,
  issuer: form.issuer,
  clientId: form.clientId,
  enabled: form.enabled === 'on',
  allowedDomains: form.allowedDomains,
  jitGroup: form.jitGroup,
  directorySync: form.directorySync === 'on',
  directoryUrl: form.directoryUrl,
  groupMapping: form.groupMapping,
  syncNames: form.syncNames === 'on',
});

/** The admin API schema's issues as the form's problems, each naming its field. */
export const problemsOf = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${fieldPath(i.path as (string | number)[]) || 'form'}: ${i.message}`);

/** A service refusal shown on the page (400 with the fields named). */
export function refusalProblems(err: unknown): { status: number; problems: string[] } {
  if (err instanceof AppError && err.status < 500 && err.status !== 404) {
    return {
      status: err.status,
      problems: err.details?.length ? err.details.map((d) => `${d.field}: ${d.message}`) : [err.message],
    };
  }
  throw err;
}
