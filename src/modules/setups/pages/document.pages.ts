import { sendWords } from '../../../i18n/desk-send';
import type { SendProblem } from '../../../i18n/desk-send-problems';
import { languages } from '../../../i18n/languages';
import { type Html, html, trusted } from '../../../platform/web/html';
import { csrfField, type StaffPageFrame } from '../../../platform/web/staff-layout';
import { defaults, errors, frame, megabytes, type OptionsValues, optionsFields, steps } from './wizard.pages';

// The desk's own quick-signing: the contacts picked, then a PDF uploaded here (dragged in or chosen),
// its pages shown, the signers' order and the options, then sent.

export interface DocumentStepView {
  /** The signers picked, in the order they were ticked. */
  people: { id: string; name: string; email: string; phone: boolean }[];
  /** The uploaded PDF, once there is one. */
  file?: { id: string; fileName: string; size: number; pages: number; images: boolean };
  values?: OptionsValues & { title?: string; sequential?: boolean; positions?: number[] };
  problems?: SendProblem[];
  qualified: boolean;
  maxFileBytes: number;
  nonce: string;
}

const documentCss = `
.drop{border:2px dashed #5f6368;border-radius:8px;padding:1.5rem;text-align:center;background:#fafbfc}
.drop.over{border-color:#0b57d0;background:#eef3fd}
.drop input[type=file]{margin:.75rem auto;display:block;max-width:100%}
.thumbs{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.75rem;list-style:none;padding:0;margin:1rem 0}
.thumbs img{display:block;width:100%;height:auto;border:1px solid #d0d4da;background:#fff}
.thumbs li{font-size:.9rem;color:#44474f;text-align:center}
.signers{padding:0;list-style:none}
.signers li{display:grid;grid-template-columns:1fr 6rem;align-items:end;gap:.5rem 1rem;padding:.5rem 0;border-bottom:1px solid #d0d4da}
.signers .field{margin:0}
.signers span{overflow-wrap:anywhere;padding-bottom:.6rem}
`;

// Dragging a PDF onto the box puts it in the file field and sends the form: without script the field
// and its button do the same.
const dropScript =
  trusted(`(function(){var z=document.getElementById('drop'),i=document.getElementById('file');if(!z||!i)return;
['dragenter','dragover'].forEach(function(n){z.addEventListener(n,function(e){e.preventDefault();z.classList.add('over')})});
['dragleave','drop'].forEach(function(n){z.addEventListener(n,function(){z.classList.remove('over')})});
z.addEventListener('drop',function(e){e.preventDefault();if(!e.dataTransfer||!e.dataTransfer.files.length)return;i.files=e.dataTransfer.files;i.form.requestSubmit()});
})();`);

function uploadForm(f: StaffPageFrame, v: DocumentStepView): Html {
  const w = sendWords[f.lang];
  const query = new URLSearchParams([
    ['_csrf', f.csrf],
    ...v.people.map((p): [string, string] => ['contact', p.id]),
  ]);
  return html`<form method="post" action="/sessionrequests/new/upload?${query.toString()}" enctype="multipart/form-data">
<div class="drop" id="drop"><label for="file">${w.pdfLabel}</label>
<input type="file" id="file" name="file" accept="application/pdf,.pdf" required aria-describedby="file-hint">
<p class="hint" id="file-hint">${w.dropHint(megabytes(v.maxFileBytes))}</p></div>
<div class="row"><button type="submit" class="primary">${w.upload}</button></div>
</form>`;
}

function preview(f: StaffPageFrame, v: DocumentStepView, file: NonNullable<DocumentStepView['file']>): Html {
  const w = sendWords[f.lang];
  const shown = Math.min(file.pages, 24);
  const back = new URLSearchParams([
    ['step', 'document'],
    ...v.people.map((p): [string, string] => ['contact', p.id]),
  ]);
  return html`<section class="card" aria-labelledby="doc-h"><h2 id="doc-h">${file.fileName}</h2>
<p>${w.pagesAndSize(file.pages, megabytes(file.size))} <a href="/sessionrequests/new?${back.toString()}">${w.chooseAnother}</a></p>
${
  file.images
    ? html`<ol class="thumbs">${Array.from({ length: shown }, (_, i) => html`<li><img src="/staff/files/${file.id}/pages/${i + 1}" alt="${w.pageOf(i + 1, file.pages)}" width="550" height="778" loading="${i < 6 ? 'eager' : 'lazy'}">${i + 1}</li>`)}</ol>${file.pages > shown ? html`<p class="hint">${w.firstShown(shown)}</p>` : ''}`
    : html`<p class="hint">${w.noPreviewSigners}</p>`
}</section>`;
}

function sendForm(f: StaffPageFrame, v: DocumentStepView, file: NonNullable<DocumentStepView['file']>): Html {
  const w = sendWords[f.lang];
  const values = { ...defaults, ...(v.values ?? {}) };
  const title = values.title ?? file.fileName.replace(/\.pdf$/i, '');
  const several = v.people.length > 1;
  return html`<form method="post" action="/sessionrequests/new/document" novalidate>
${csrfField(f.csrf)}<input type="hidden" name="fileId" value="${file.id}">
<div class="field"><label for="title">${w.titleLabel}</label><input type="text" id="title" name="title" maxlength="200" value="${title}" aria-describedby="title-hint"><p class="hint" id="title-hint">${w.titleHint}</p></div>
<fieldset><legend>${several ? w.signers : w.signer}</legend><ol class="signers">${v.people.map(
    (p, i) =>
      html`<li><input type="hidden" name="contact" value="${p.id}"><span><strong>${p.name}</strong> — ${p.email}</span>${
        several
          ? html`<div class="field"><label for="pos-${i}">${w.order}<span class="skip">${w.orderOf(p.name)}</span></label><input type="number" id="pos-${i}" name="position" min="1" max="${v.people.length}" inputmode="numeric" value="${v.values?.positions?.[i] ?? i + 1}"></div>`
          : ''
      }</li>`,
  )}</ol>
${
  several
    ? html`<div class="choice"><input type="radio" id="together" name="signingOrder" value="parallel"${values.sequential ? '' : html` checked`}><label for="together">${w.allAtOnce}</label></div>
<div class="choice"><input type="radio" id="sequential" name="signingOrder" value="sequential"${values.sequential ? html` checked` : ''}><label for="sequential">${w.inThisOrder}</label></div>`
    : ''
}</fieldset>
${optionsFields(f, values, { phone: v.people.some((p) => p.phone), languages: [...languages], signing: true, qualified: v.qualified })}
<div class="row"><button type="submit" class="primary">${w.sendForSigning}</button></div>
</form>`;
}

/** `/sessionrequests/new?step=document`: the PDF (uploaded here), its pages, the signers and the options. */
export function documentStep(f: StaffPageFrame, v: DocumentStepView): string {
  const w = sendWords[f.lang];
  const file = v.file;
  const nameOf = (id: string) => v.people.find((p) => p.id === id)?.name;
  return frame(
    f,
    w.quickTitle,
    html`<h1>${w.quickTitle}</h1>
${steps(f, ['contacts', 'document', 'sent'], 1)}
${errors(f, v.problems, nameOf)}
${file ? html`${preview(f, v, file)}\n${sendForm(f, v, file)}` : uploadForm(f, v)}`,
    { css: documentCss, script: { nonce: v.nonce, code: dropScript } },
  );
}
