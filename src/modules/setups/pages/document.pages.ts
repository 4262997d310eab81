import { languages } from '../../../i18n/languages';
import { type Html, html, trusted } from '../../../platform/web/html';
import type { StaffPageFrame } from '../../../platform/web/staff-layout';
import { defaults, errors, frame, type OptionsValues, optionsFields, steps } from './wizard.pages';

// The desk's own quick-signing: the contacts picked, then a PDF uploaded here (dragged in or chosen),
// its pages shown, the signers' order and the options, then sent.

export interface DocumentStepView {
  /** The signers picked, in the order they were ticked. */
  people: { id: string; name: string; email: string; phone: boolean }[];
  /** The uploaded PDF, once there is one. */
  file?: { id: string; fileName: string; size: number; pages: number; images: boolean };
  values?: OptionsValues & { title?: string; sequential?: boolean; positions?: number[] };
  problems?: string[];
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

const megabytes = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

function uploadForm(f: StaffPageFrame, v: DocumentStepView): Html {
  const query = new URLSearchParams([
    ['_csrf', f.csrf],
    ...v.people.map((p): [string, string] => ['contact', p.id]),
  ]);
  return html`<form method="post" action="/sessionrequests/new/upload?${query.toString()}" enctype="multipart/form-data">
<div class="drop" id="drop"><label for="file">The PDF to sign</label>
<input type="file" id="file" name="file" accept="application/pdf,.pdf" required aria-describedby="file-hint">
<p class="hint" id="file-hint">Drag the file onto this box, or choose it. A PDF of at most ${megabytes(v.maxFileBytes)}.</p></div>
<div class="row"><button type="submit" class="primary">Upload and show the pages</button></div>
</form>`;
}

function preview(v: DocumentStepView, file: NonNullable<DocumentStepView['file']>): Html {
  const shown = Math.min(file.pages, 24);
  const back = new URLSearchParams([
    ['step', 'document'],
    ...v.people.map((p): [string, string] => ['contact', p.id]),
  ]);
  return html`<section class="card" aria-labelledby="doc-h"><h2 id="doc-h">${file.fileName}</h2>
<p>${file.pages} ${file.pages === 1 ? 'page' : 'pages'}, ${megabytes(file.size)}. <a href="/sessionrequests/new?${back.toString()}">Choose another file</a></p>
${
  file.images
    ? html`<ol class="thumbs">${Array.from({ length: shown }, (_, i) => html`<li><img src="/staff/files/${file.id}/pages/${i + 1}" alt="Page ${i + 1} of ${file.pages}" width="550" height="778" loading="${i < 6 ? 'eager' : 'lazy'}">${i + 1}</li>`)}</ol>${file.pages > shown ? html`<p class="hint">The first ${shown} pages are shown.</p>` : ''}`
    : html`<p class="hint">No preview can be drawn on this server; the signers see the download.</p>`
}</section>`;
}

function sendForm(f: StaffPageFrame, v: DocumentStepView, file: NonNullable<DocumentStepView['file']>): Html {
  const values = { ...defaults, ...(v.values ?? {}) };
  const title = values.title ?? file.fileName.replace(/\.pdf$/i, '');
  const several = v.people.length > 1;
  return html`<form method="post" action="/sessionrequests/new/document" novalidate>
<input type="hidden" name="_csrf" value="${f.csrf}"><input type="hidden" name="fileId" value="${file.id}">
<div class="field"><label for="title">Title of the document</label><input type="text" id="title" name="title" maxlength="200" value="${title}" aria-describedby="title-hint"><p class="hint" id="title-hint">The signers see it in the invitation, on the page and in the consent they give.</p></div>
<fieldset><legend>${several ? 'Signers' : 'Signer'}</legend><ol class="signers">${v.people.map(
    (p, i) =>
      html`<li><input type="hidden" name="contact" value="${p.id}"><span><strong>${p.name}</strong> — ${p.email}</span>${
        several
          ? html`<div class="field"><label for="pos-${i}">Order<span class="skip"> of ${p.name}</span></label><input type="number" id="pos-${i}" name="position" min="1" max="${v.people.length}" inputmode="numeric" value="${v.values?.positions?.[i] ?? i + 1}"></div>`
          : ''
      }</li>`,
  )}</ol>
${
  several
    ? html`<div class="choice"><input type="radio" id="together" name="signingOrder" value="parallel"${values.sequential ? '' : html` checked`}><label for="together">All at once: everyone is invited now</label></div>
<div class="choice"><input type="radio" id="sequential" name="signingOrder" value="sequential"${values.sequential ? html` checked` : ''}><label for="sequential">One after the other, in this order: each is invited when the one before has signed</label></div>`
    : ''
}</fieldset>
${optionsFields(values, { phone: v.people.some((p) => p.phone), languages: [...languages], signing: true, qualified: v.qualified })}
<div class="row"><button type="submit" class="primary">Send for signing</button></div>
</form>`;
}

/** `/sessionrequests/new?step=document`: the PDF (uploaded here), its pages, the signers and the options. */
export function documentStep(f: StaffPageFrame, v: DocumentStepView): string {
  const file = v.file;
  return frame(
    f,
    'Send a document to sign',
    html`<h1>Send a document to sign</h1>
${steps(['Contacts', 'Document and signers', 'Sent'], 1)}
${errors(v.problems ?? [])}
${file ? html`${preview(v, file)}\n${sendForm(f, v, file)}` : uploadForm(f, v)}`,
    { css: documentCss, script: { nonce: v.nonce, code: dropScript } },
  );
}
