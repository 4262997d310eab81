import {
  type OrganisationField,
  type OrganisationNotice,
  organisationWords,
} from '../../../i18n/desk-organisation';
import { staffWords } from '../../../i18n/staff';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  pageNotices,
  type StaffPageFrame,
  staffLayout,
} from '../../../platform/web/staff-layout';
import type { BrandSettings } from '../../organisations';

/** The form's fields as shown: the stored values, or what was sent with a refused form. */
export type OrganisationFormValues = Record<OrganisationField, string> & { requireCodeToDecline: boolean };

export interface OrganisationPageView {
  brand: BrandSettings;
  values: OrganisationFormValues;
  /** The fields of a refused form (shown again with what was sent, each saying what is wrong). */
  problems?: readonly OrganisationField[];
  /** The logo upload was refused. */
  logoRefused?: boolean;
  notice?: OrganisationNotice;
}

/** The values of the form as stored. */
export const valuesOf = (b: BrandSettings): OrganisationFormValues => ({
  brandName: b.brandName ?? '',
  colour: b.colour ?? '',
  mailSenderName: b.mailSenderName ?? '',
  mailReplyTo: b.mailReplyTo ?? '',
  smsSender: b.smsSender ?? '',
  requireCodeToDecline: b.requireCodeToDecline,
});

const HEX = /^#[0-9a-f]{6}$/;

/** The contact's page header and a button and link in the organisation's colour, as contacts see them. */
function preview(f: StaffPageFrame, b: BrandSettings): Html {
  const w = organisationWords[f.lang];
  return html`<section class="preview-box" aria-labelledby="preview-h"><h2 id="preview-h">${w.preview}</h2>
<p class="hint">${w.previewHint}</p>
<div class="preview">${b.logo ? html`<img class="logo" src="${b.logo.url}" alt="" height="48">` : ''}<p class="org">${b.displayName}</p>
<p><span class="sample-link">${w.previewLink}</span></p><p><span class="button primary">${w.previewButton}</span></p></div></section>`;
}

function logoSection(f: StaffPageFrame, v: OrganisationPageView): Html {
  const w = organisationWords[f.lang];
  const logo = v.brand.logo;
  const upload = new URLSearchParams([['_csrf', f.csrf]]);
  return html`<h2 id="logo">${w.logo}</h2>
${v.logoRefused ? html`<div class="summary" role="alert"><p class="error">${w.logoRefused}</p></div>` : ''}
${logo ? html`<p><img class="current-logo" src="${logo.url}" alt="${w.currentLogo}" height="48"></p>` : html`<p>${w.noLogo}</p>`}
<form method="post" action="/staff/settings/organisation/logo?${upload.toString()}" enctype="multipart/form-data">
<div class="field"><label for="file">${w.logoFile}</label><p class="hint" id="file-hint">${w.logoHint}</p>
<input type="file" id="file" name="file" accept="image/png,image/jpeg" required aria-describedby="file-hint"></div>
<div class="row"><button type="submit">${w.upload}</button></div></form>
${
  logo
    ? html`<form method="post" action="/staff/settings/organisation/logo/delete">${csrfField(f.csrf)}<div class="row"><button type="submit" class="danger" data-confirm="${w.confirmRemoveLogo}">${w.removeLogo}</button></div></form>`
    : ''
}`;
}

/** Administrators: the organisation's face to its contacts, with a preview, and its logo. */
export function organisationPage(f: StaffPageFrame, v: OrganisationPageView): string {
  const w = organisationWords[f.lang];
  const b = v.brand;
  const problems = (v.problems ?? []).map((k): [OrganisationField, string] => [k, w.invalid[k]]);
  const field = (name: OrganisationField, type: string, hint: string, max: number): Html => {
    const problem = v.problems?.includes(name) ? w.invalid[name] : undefined;
    const described = `${name}-hint${problem ? ` ${name}-error` : ''}`;
    return html`<div class="field"><label for="${name}">${w[name]}</label><p class="hint" id="${name}-hint">${hint}</p>${
      problem ? html`<p class="error" id="${name}-error">${problem}</p>` : ''
    }<input type="${type}" id="${name}" name="${name}" value="${v.values[name]}" maxlength="${max}" autocomplete="off" aria-describedby="${described}"${
      problem ? html` aria-invalid="true"` : ''
    }></div>`;
  };
  const colour = b.shownColour && HEX.test(b.shownColour) ? b.shownColour : null;
  const darkened =
    colour && b.colour && colour !== b.colour ? html`<p class="hint">${w.darkened(colour)}</p>` : '';
  return staffLayout({
    title: w.title,
    area: 'settings',
    ...framed(f),
    // The preview in the organisation's colour: a checked #rrggbb, readable on white.
    css: `.preview{border:1px solid #d0d4da;border-radius:8px;padding:1rem;max-width:40rem}.preview .org{font-weight:700;font-size:1.25rem;margin:0}.preview .logo,.current-logo{display:block;height:3rem;width:auto;max-width:14rem}.sample-link{text-decoration:underline;color:${colour ?? '#0b57d0'}}${
      colour ? `.preview .button.primary{background:${colour};border-color:${colour}}` : ''
    }`,
    body: html`<p><a href="/staff/settings">${staffWords[f.lang].settings}</a></p>
<h1>${w.title}</h1>
${pageNotices(v.notice ? w.notices[v.notice] : undefined)}
${
  problems.length
    ? html`<div class="summary" role="alert" tabindex="-1" id="problems"><h2>${staffWords[f.lang].problems}</h2><ul>${problems.map(
        ([k, msg]) => html`<li><a href="#${k}">${msg}</a></li>`,
      )}</ul></div>`
    : ''
}
<p>${w.intro}</p>
${preview(f, b)}
<form method="post" action="/staff/settings/organisation" novalidate>${csrfField(f.csrf)}
${field('brandName', 'text', w.brandNameHint(b.organisationName), 100)}
${field('colour', 'text', w.colourHint, 7)}${darkened}
${field('mailSenderName', 'text', w.mailSenderNameHint, 100)}
${field('mailReplyTo', 'email', w.mailReplyToHint, 320)}
${field('smsSender', 'text', w.smsSenderHint, 11)}
<fieldset class="field"><legend>${w.declineLegend}</legend>
<div class="choice"><input type="checkbox" id="requireCodeToDecline" name="requireCodeToDecline" value="yes" aria-describedby="requireCodeToDecline-hint"${v.values.requireCodeToDecline ? html` checked` : ''}><label for="requireCodeToDecline">${w.requireCode}</label></div>
<p class="hint" id="requireCodeToDecline-hint">${w.requireCodeHint}</p></fieldset>
<div class="row"><button type="submit" class="primary">${w.save}</button></div>
</form>
${logoSection(f, v)}`,
  });
}
