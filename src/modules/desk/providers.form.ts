// The sign-in provider form of Integrations → OAuth Providers: its fields, the admin API's input made from
// them, what the form shows again after a refusal, and the refusal's problems by name (the page says them).

import type { ProviderProblem } from '../../i18n/desk-providers';
import { userWords } from '../../i18n/desk-users';
import { languages } from '../../i18n/languages';
import { AppError, type FieldError } from '../../platform/kernel/errors';
import { groups } from '../../platform/kernel/permissions';
import { z } from '../../platform/kernel/zod';
import { csrfInput } from './admin-pages';
import type { ProviderFormValues, ProviderRefusal } from './pages/providers.pages';

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

/** A group as typed in the mapping: its own name, or its name in any language of the pages. */
function groupOf(typed: string): string {
  const t = typed.trim().toLowerCase();
  const found = groups.find(
    (g) => g === t || languages.some((l) => userWords[l].groupNames[g]?.toLowerCase() === t),
  );
  return found ?? typed.trim();
}

/** `id = group` lines as a mapping (a line without `=` is kept whole, and refused by the schema). */
function mappingOf(text: string | undefined): Record<string, string> {
  const mapping: Record<string, string> = Object.create(null);
  for (const line of (text ?? '').split(/\r?\n/)) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    if (at < 0) mapping[line.trim()] = '';
    else mapping[line.slice(0, at).trim()] = groupOf(line.slice(at + 1));
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

/** The groups just-in-time creation may choose: a refusal of one of these is for want of domains. */
const jitGroups: readonly string[] = groups.filter((g) => g !== 'administrator');

/** Which problem an issue of the admin API's schema is, by its field and what the form holds. */
function problemOf(field: string, form: ProviderForm, microsoft: boolean): ProviderProblem {
  switch (field) {
    case 'type':
    case 'name':
    case 'clientId':
    case 'clientSecret':
      return field;
    case 'tenantId':
      return !trimmed(form.tenantId) ? 'tenantRequired' : microsoft ? 'tenantId' : 'tenantOnlyMicrosoft';
    case 'issuer':
      return trimmed(form.issuer) ? 'issuer' : 'issuerRequired';
    case 'allowedDomains':
      return 'domains';
    case 'jitGroup':
      return jitGroups.includes(trimmed(form.jitGroup) ?? '') ? 'jitNeedsDomains' : 'jitGroup';
    case 'directoryUrl':
    case 'groupMapping':
      return microsoft ? field : 'directoryOnlyMicrosoft';
    case 'directorySync':
    case 'syncNames':
      return 'directoryOnlyMicrosoft';
    default:
      return 'form';
  }
}

/** The admin API schema's issues as the form's problems, by name (each once): the page says them. */
export function problemsOf(
  issues: readonly { path: PropertyKey[] }[],
  form: ProviderForm,
  microsoft: boolean,
): ProviderProblem[] {
  return [...new Set(issues.map((i) => problemOf(String(i.path[0] ?? ''), form, microsoft)))];
}

/** A service's refusal of a field, by name; an address refused, with why. */
function detailProblem(d: FieldError): ProviderRefusal {
  if (d.field === 'issuer' || d.field === 'directoryUrl') return { refused: d.field, why: d.message };
  if (d.field === 'tenantId') return 'tenantOnlyMicrosoft';
  if (d.field === 'jitGroup' || d.field === 'allowedDomains') return 'jitNeedsDomains';
  if (d.field === 'directorySync' || d.field === 'groupMapping' || d.field === 'syncNames')
    return 'directoryOnlyMicrosoft';
  return { said: `${d.field}: ${d.message}` };
}

/**
 * A service refusal shown on the page: a field's by name (400), the state's as `conflict` names it (409:
 * each post can meet one), anything else as the service says it.
 */
export function refusalProblems(
  err: unknown,
  conflict?: ProviderProblem,
): { status: number; problems: ProviderRefusal[] } {
  if (!(err instanceof AppError) || err.status >= 500 || err.status === 404) throw err;
  if (err.status === 409 && conflict) return { status: 409, problems: [conflict] };
  if (err.status === 400 && err.details?.length)
    return { status: 400, problems: err.details.map(detailProblem) };
  return { status: err.status, problems: [{ said: err.message }] };
}
