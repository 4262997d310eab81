import { type NotifyChoice, notifyChoices } from '../../../db/schema/enums';
import { deskWords } from '../../../i18n/desk';
import { organisationWords } from '../../../i18n/desk-organisation';
import { sealWords } from '../../../i18n/desk-seal';
import { type Language, languageNames, languages } from '../../../i18n/languages';
import { staffLanguage } from '../../../i18n/staff';
import { html } from '../../../platform/web/html';
import { csrfField, framed, type StaffPageFrame, staffLayout } from '../../../platform/web/staff-layout';

export interface SettingsView {
  language: Language | null;
  notify: NotifyChoice;
  /** The browser's languages, for the "as my browser asks" choice. */
  browser: readonly string[];
  saved: boolean;
}

export function settingsPage(f: StaffPageFrame, v: SettingsView): string {
  const w = deskWords[f.lang].settings;
  const radio = (name: string, id: string, value: string, checked: boolean, label: string) =>
    html`<div class="choice"><input type="radio" id="${id}" name="${name}" value="${value}"${checked ? html` checked` : ''}><label for="${id}">${label}</label></div>`;
  const notifyLabels: Record<NotifyChoice, string> = {
    each: w.notifyEach,
    digest: w.notifyDigest,
    none: w.notifyNone,
  };
  return staffLayout({
    title: w.title,
    area: 'settings',
    narrow: true,
    ...framed(f),
    body: html`<h1>${w.title}</h1>
${v.saved ? html`<p class="notice" role="status">${w.saved}</p>` : ''}
<form method="post" action="/staff/settings">${csrfField(f.csrf)}
<fieldset class="field"><legend>${w.language}</legend>
${radio('language', 'language-browser', '', v.language === null, w.browser(languageNames[staffLanguage(null, v.browser)]))}
${languages.map((l) => radio('language', `language-${l}`, l, v.language === l, languageNames[l]))}
<p class="hint">${w.zone(f.zone)}</p></fieldset>
<fieldset class="field"><legend>${w.notify}</legend><p class="hint" id="notify-hint">${w.notifyHint}</p>
${notifyChoices.map((n) => radio('notify', `notify-${n}`, n, v.notify === n, notifyLabels[n]))}
</fieldset>
<button type="submit" class="primary">${w.save}</button></form>${
      f.me.administrator
        ? html`\n<p><a href="/staff/settings/organisation">${organisationWords[f.lang].link}</a></p>\n<p><a href="/staff/settings/seal">${sealWords[f.lang].link}</a></p>`
        : ''
    }`,
  });
}
