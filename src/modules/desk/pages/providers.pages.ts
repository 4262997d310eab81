import { integrationWords } from '../../../i18n/desk-integrations';
import { type ProviderNotice, type ProviderProblem, providerWords } from '../../../i18n/desk-providers';
import { groups } from '../../../platform/kernel/permissions';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  pageNotices,
  problemList,
  type StaffPageFrame,
  staffLayout,
  when,
} from '../../../platform/web/staff-layout';
import type { AuditEvent } from '../../audit';
import type { SsoProvider } from '../../sso';
import { groupName, historySection, syncSection } from './provider-reports.pages';

const types = ['google', 'microsoft', 'oidc'] as const;
/** The groups just-in-time creation may put a user in (never administrator). */
const jitGroups = ['adviser', 'file manager', 'read-only'] as const;

/** What the form showed, to show it again after a refusal (never the secret). */
export interface ProviderFormValues {
  type?: string;
  name?: string;
  tenantId?: string;
  issuer?: string;
  clientId?: string;
  enabled?: boolean;
  allowedDomains?: string;
  jitGroup?: string;
  directorySync?: boolean;
  directoryUrl?: string;
  /** One mapping a line: `directory group id = group` (the group in the page's language). */
  groupMapping?: string;
  syncNames?: boolean;
}

/**
 * A refusal as the router passes it: the form's or the service's by its name, an address refused with
 * why (the address check's own words), or an unforeseen refusal as the service says it.
 */
export type ProviderRefusal =
  | ProviderProblem
  | { refused: 'issuer' | 'directoryUrl'; why: string }
  | { said: string };

/** What a provider page shows besides the provider(s): a notice, or a refusal with the form as sent. */
export interface ProviderPageExtra {
  notice?: ProviderNotice;
  problems?: readonly ProviderRefusal[];
  form?: ProviderFormValues;
}

/** The refusals in the page's words. */
function problemsIn(f: StaffPageFrame, refusals: readonly ProviderRefusal[] | undefined) {
  const w = providerWords[f.lang];
  return refusals?.map((r) =>
    typeof r === 'string'
      ? w.problems[r]
      : 'said' in r
        ? r.said
        : r.refused === 'issuer'
          ? w.issuerRefused(r.why)
          : w.directoryRefused(r.why),
  );
}

/** The outcome lines of a page: a notice, or the refused form's problems. */
const outcome = (f: StaffPageFrame, v: ProviderPageExtra) =>
  html`${pageNotices(v.notice ? providerWords[f.lang].notices[v.notice] : undefined)}${problemList(f, problemsIn(f, v.problems))}`;

/** The exact address to register at the provider, ready to copy. */
function redirectBox(f: StaffPageFrame, redirectUri: string): Html {
  const w = providerWords[f.lang].list;
  return html`<div class="notice"><p><strong>${w.redirect}</strong> — ${w.redirectHow}</p><p><code id="redirect-uri">${redirectUri}</code></p></div>`;
}

function commonFields(f: StaffPageFrame, prefix: string, v: ProviderFormValues, editing: boolean): Html {
  const w = providerWords[f.lang].form;
  return html`<div class="field"><label for="${prefix}-name">${w.name}</label><input type="text" id="${prefix}-name" name="name" maxlength="100" value="${v.name ?? ''}" aria-describedby="${prefix}-name-hint"><p class="hint" id="${prefix}-name-hint">${w.nameHint}</p></div>
<div class="field"><label for="${prefix}-tenant">${w.tenant}</label><input type="text" id="${prefix}-tenant" name="tenantId" maxlength="100" value="${v.tenantId ?? ''}" autocomplete="off" spellcheck="false"></div>
<div class="field"><label for="${prefix}-issuer">${w.issuer}</label><input type="url" id="${prefix}-issuer" name="issuer" maxlength="500" value="${v.issuer ?? ''}" autocomplete="off" spellcheck="false"></div>
<div class="field"><label for="${prefix}-client">${w.clientId}</label><input type="text" id="${prefix}-client" name="clientId" maxlength="500" value="${v.clientId ?? ''}" autocomplete="off" spellcheck="false"${editing ? '' : html` required`}></div>
<div class="field"><label for="${prefix}-secret">${editing ? w.secretKeep : w.secret}</label><input type="password" id="${prefix}-secret" name="clientSecret" maxlength="2000" autocomplete="new-password"${editing ? '' : html` required`} aria-describedby="${prefix}-secret-hint"><p class="hint" id="${prefix}-secret-hint">${w.secretHint}</p></div>
<div class="field"><label for="${prefix}-domains">${w.domains}</label><textarea id="${prefix}-domains" name="allowedDomains" spellcheck="false">${v.allowedDomains ?? ''}</textarea></div>
<div class="field"><label for="${prefix}-jit">${w.jit}</label><select id="${prefix}-jit" name="jitGroup" aria-describedby="${prefix}-jit-hint">${[
    '',
    ...jitGroups,
  ].map(
    (value) =>
      html`<option value="${value}"${(v.jitGroup ?? '') === value ? html` selected` : ''}>${value ? w.jitIn(groupName(f, value)) : w.jitOff}</option>`,
  )}</select><p class="hint" id="${prefix}-jit-hint">${w.jitHint}</p></div>
<div class="choice"><input type="checkbox" id="${prefix}-enabled" name="enabled" value="on"${v.enabled ? html` checked` : ''}> <label for="${prefix}-enabled">${w.enabled}</label></div>`;
}

/** The providers as a table: each one's button, kind, client ID, domains and status. */
function providerTable(f: StaffPageFrame, providers: SsoProvider[]): Html {
  const w = providerWords[f.lang].list;
  const i = integrationWords[f.lang];
  if (!providers.length) return html`<p>${w.none}</p>`;
  return html`<table class="stack"><caption class="skip">${i.clients.providersHeading}</caption><thead><tr><th scope="col">${w.button}</th><th scope="col">${i.clients.kind}</th><th scope="col">${providerWords[f.lang].form.clientId}</th><th scope="col">${w.domains}</th><th scope="col">${i.clients.status}</th></tr></thead><tbody>${providers.map(
    (p) =>
      html`<tr><td><a href="/staff/integrations/providers/${p._id}">${p.name}</a></td><td data-label="${i.clients.kind}">${w.types[p.type]}</td><td data-label="${providerWords[f.lang].form.clientId}"><code>${p.clientId}</code></td><td data-label="${w.domains}">${p.allowedDomains.length ? p.allowedDomains.join(', ') : w.anyDomain}</td><td data-label="${i.clients.status}">${p.enabled ? w.enabled : w.disabled}</td></tr>`,
  )}</tbody></table>`;
}

/** Password sign-in: on or off, and the button that switches it (off asks first). */
function passwordSection(f: StaffPageFrame, on: boolean): Html {
  const w = providerWords[f.lang].list;
  return html`<h2 id="password">${w.password}</h2>
<p>${on ? w.passwordOn : w.passwordOff}</p>
<form method="post" action="/staff/integrations/providers/password-sign-in">${csrfField(f.csrf)}<input type="hidden" name="passwordSignIn" value="${on ? 'off' : 'on'}"><div class="row"><button type="submit"${on ? html` class="danger" data-confirm="${w.confirmSwitchOff}"` : ''}>${on ? w.switchOff : w.switchOn}</button></div></form>`;
}

/** Integrations → OAuth Providers: the organisation's sign-in providers and the form to add one. */
export function providersPage(
  f: StaffPageFrame,
  v: ProviderPageExtra & {
    providers: SsoProvider[];
    redirectUri: string;
    signInAddress: string;
    passwordSignIn: boolean;
  },
): string {
  const w = providerWords[f.lang].list;
  const form = v.form ?? { type: 'google' };
  return staffLayout({
    ...framed(f),
    title: w.title,
    area: 'integrations',
    body: html`<p><a href="/staff/integrations">${integrationWords[f.lang].title}</a></p>
<h1>${w.title}</h1>
<p>${w.intro} <a href="${v.signInAddress}">${v.signInAddress}</a>.</p>
${outcome(f, v)}
${redirectBox(f, v.redirectUri)}
${providerTable(f, v.providers)}
${passwordSection(f, v.passwordSignIn)}
<h2 id="add">${w.add}</h2>
<form method="post" action="/staff/integrations/providers" novalidate>${csrfField(f.csrf)}
<fieldset class="field"><legend>${integrationWords[f.lang].clients.kind}</legend>${types.map(
      (value) =>
        html`<div class="choice"><input type="radio" id="type-${value}" name="type" value="${value}"${form.type === value ? html` checked` : ''}> <label for="type-${value}">${w.types[value]}</label></div>`,
    )}</fieldset>
${commonFields(f, 'new', form, false)}
<div class="row"><button type="submit" class="primary">${w.addButton}</button></div>
</form>`,
  });
}

/** Microsoft-type: directory synchronisation's settings (in the provider's form). */
function directoryFields(f: StaffPageFrame, v: ProviderFormValues): Html {
  const w = providerWords[f.lang].directory;
  const names = groups.map((g) => groupName(f, g)).join(', ');
  return html`<fieldset class="field"><legend>${w.heading}</legend>
<div class="choice"><input type="checkbox" id="sync-on" name="directorySync" value="on"${v.directorySync ? html` checked` : ''}> <label for="sync-on">${w.syncOn}</label></div>
<div class="choice"><input type="checkbox" id="sync-names" name="syncNames" value="on"${v.syncNames ? html` checked` : ''}> <label for="sync-names">${w.syncNames}</label></div>
<div class="field"><label for="sync-url">${w.url}</label><input type="url" id="sync-url" name="directoryUrl" maxlength="500" value="${v.directoryUrl ?? ''}" spellcheck="false"></div>
<div class="field"><label for="sync-groups">${w.mapping(names)}</label><textarea id="sync-groups" name="groupMapping" spellcheck="false">${v.groupMapping ?? ''}</textarea></div>
<p class="hint">${w.hint}</p></fieldset>`;
}

/** One provider: its settings to change, enable or remove, and its history (the audit trail). */
export function providerPage(
  f: StaffPageFrame,
  v: ProviderPageExtra & {
    provider: SsoProvider;
    history: AuditEvent[];
    /** The latest changes directory synchronisation made to users. */
    synced?: AuditEvent[];
    /** Display names of the users who made the changes. */
    names: Map<string, string>;
  },
): string {
  const w = providerWords[f.lang];
  const i = integrationWords[f.lang].clients;
  const p = v.provider;
  const form: ProviderFormValues = v.form ?? {
    name: p.name,
    tenantId: p.tenantId ?? '',
    issuer: p.issuer,
    clientId: p.clientId,
    enabled: p.enabled,
    allowedDomains: p.allowedDomains.join('\n'),
    jitGroup: p.jitGroup ?? '',
    directorySync: p.directorySync,
    directoryUrl: p.directoryUrl ?? '',
    groupMapping: Object.entries(p.groupMapping)
      .map(([id, group]) => `${id} = ${groupName(f, group)}`)
      .join('\n'),
    syncNames: p.syncNames,
  };
  return staffLayout({
    ...framed(f),
    title: p.name,
    area: 'integrations',
    body: html`<p><a href="/staff/integrations/providers">${w.list.title}</a></p>
<h1>${p.name}</h1>
${outcome(f, v)}
<dl class="facts"><dt>${i.kind}</dt><dd>${w.list.types[p.type]}</dd><dt>${i.status}</dt><dd>${p.enabled ? w.list.enabled : w.list.disabled}</dd><dt>${w.form.secret}</dt><dd>${w.page.savedAt} ${when(f, p.secretUpdatedAt)} ${w.page.neverShown}</dd></dl>
${redirectBox(f, p.redirectUri)}
<h2>${w.page.settings}</h2>
<form method="post" action="/staff/integrations/providers/${p._id}" novalidate>${csrfField(f.csrf)}
${commonFields(f, 'edit', form, true)}
${p.type === 'microsoft' ? directoryFields(f, form) : ''}
<div class="row"><button type="submit" class="primary">${w.page.save}</button></div>
</form>
${p.type === 'microsoft' ? syncSection(f, p, v.synced ?? [], v.names) : ''}
<h2>${w.page.remove}</h2>
<form method="post" action="/staff/integrations/providers/${p._id}/delete">${csrfField(f.csrf)}<p>${w.page.removeText}</p><div class="row"><button type="submit" class="danger" data-confirm="${w.page.confirmRemove(p.name)}">${w.page.removeButton(p.name)}</button></div></form>
${historySection(f, p, v.history, v.names)}`,
  });
}
