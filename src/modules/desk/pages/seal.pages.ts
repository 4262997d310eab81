import { staffDateTime } from '../../../i18n/dates';
import { type SealNotice, type SealRefusal, sealWords } from '../../../i18n/desk-seal';
import { signedDocumentTexts } from '../../../i18n/signed-document';
import { staffWords } from '../../../i18n/staff';
import type { PadesLevel } from '../../../platform/signing/pades';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  pageNotices,
  type StaffPageFrame,
  staffLayout,
  when,
} from '../../../platform/web/staff-layout';
import { type OrganisationSeal, SEAL_WARNING_DAYS } from '../../organisations';

export interface SealPageView {
  seal: OrganisationSeal;
  /** The PAdES level the service seals documents at. */
  level: PadesLevel;
  /** Why the upload just sent was refused (the form again, with the problem on its field). */
  refused?: SealRefusal;
  notice?: SealNotice;
}

/** The certificate the documents are sealed with, as facts. */
function current(f: StaffPageFrame, v: SealPageView): Html {
  const w = sealWords[f.lang];
  const c = v.seal.certificate;
  const own = v.seal.source === 'organisation';
  const soon = own && v.seal.expiresInDays <= SEAL_WARNING_DAYS;
  return html`<section aria-labelledby="in-use"><h2 id="in-use">${w.inUse}</h2>
${v.seal.ownSealExpiredAt ? html`<p class="warning" role="status">${w.ownExpired(staffDateTime(new Date(v.seal.ownSealExpiredAt), f.lang, f.zone))}</p>` : ''}
${soon ? html`<p class="warning" role="status">${w.expiresSoon(Math.max(0, v.seal.expiresInDays))}</p>` : ''}
<dl class="facts"><dt>${w.which}</dt><dd><strong>${own ? w.own : w.service}</strong></dd>
<dt>${w.level}</dt><dd>${signedDocumentTexts[f.lang].levels[v.level]}</dd>
<dt>${w.subject}</dt><dd>${c.subject}</dd>
<dt>${w.issuer}</dt><dd>${c.issuer}</dd>
<dt>${w.serialNumber}</dt><dd><code>${c.serialNumber}</code></dd>
<dt>${w.validFrom}</dt><dd>${when(f, c.notBefore)}</dd>
<dt>${w.validUntil}</dt><dd>${when(f, c.notAfter)} (${w.daysLeft(Math.max(0, v.seal.expiresInDays))})</dd>
<dt>${w.fingerprint}</dt><dd><code>${c.fingerprint}</code></dd>
${own ? html`<dt>${w.uploadedOn}</dt><dd>${when(f, v.seal.uploadedAt)}</dd>` : ''}</dl>
<p class="hint">${w.testNote}</p></section>`;
}

/** The upload form: the file and its password together; a refusal is shown on the field it is about. */
function uploadForm(f: StaffPageFrame, v: SealPageView): Html {
  const w = sealWords[f.lang];
  const own = v.seal.source === 'organisation';
  const action = new URLSearchParams([['_csrf', f.csrf]]);
  const onPassword = v.refused === 'wrongPassword';
  const problem = v.refused ? w.refused[v.refused] : undefined;
  const fileProblem = problem && !onPassword ? problem : undefined;
  const passwordProblem = onPassword ? problem : undefined;
  const error = (id: string, text: string | undefined) =>
    text ? html`<p class="error" id="${id}">${text}</p>` : '';
  return html`<section aria-labelledby="upload-h"><h2 id="upload-h">${own ? w.replace : w.upload}</h2>
${problem ? html`<div class="summary" role="alert" tabindex="-1" id="problems"><h2>${staffWords[f.lang].problems}</h2><ul><li><a href="#${onPassword ? 'password' : 'file'}">${problem}</a></li></ul></div>` : ''}
<form method="post" action="/staff/settings/seal?${action.toString()}" enctype="multipart/form-data">
<div class="field"><label for="file">${w.file}</label><p class="hint" id="file-hint">${w.fileHint}</p>${error('file-error', fileProblem)}
<input type="file" id="file" name="file" accept=".p12,.pfx,application/x-pkcs12" required aria-describedby="file-hint${fileProblem ? ' file-error' : ''}"${fileProblem ? html` aria-invalid="true"` : ''}></div>
<div class="field"><label for="password">${w.password}</label><p class="hint" id="password-hint">${w.passwordHint}</p>${error('password-error', passwordProblem)}
<input type="password" id="password" name="password" maxlength="1000" autocomplete="off" aria-describedby="password-hint${passwordProblem ? ' password-error' : ''}"${passwordProblem ? html` aria-invalid="true"` : ''}></div>
<div class="row"><button type="submit" class="primary">${w.send}</button></div></form>
${
  own || v.seal.ownSealExpiredAt
    ? html`<form method="post" action="/staff/settings/seal/delete">${csrfField(f.csrf)}<div class="row"><button type="submit" class="danger" data-confirm="${w.confirmRemove}">${w.remove}</button></div></form>`
    : ''
}</section>`;
}

/** Administrators: the seal on the organisation's documents, uploading its own, removing it. */
export function sealPage(f: StaffPageFrame, v: SealPageView): string {
  const w = sealWords[f.lang];
  return staffLayout({
    title: w.title,
    area: 'settings',
    ...framed(f),
    css: 'dl.facts code{overflow-wrap:anywhere;word-break:break-all}.warning{background:#fff8e1;border-left:4px solid #b06000;padding:.5rem .75rem}',
    body: html`<p><a href="/staff/settings">${staffWords[f.lang].settings}</a></p>
<h1>${w.title}</h1>
${pageNotices(v.notice ? w.notices[v.notice] : undefined)}
<p>${w.intro}</p>
${current(f, v)}
${uploadForm(f, v)}`,
  });
}
