import { dateTimeWithZone } from '../../../i18n/dates';
import { respondentTexts } from '../../../i18n/respondent';
import { signingTexts } from '../../../i18n/signing';
import { type Html, html, trusted } from '../../../platform/web/html';
import type { Channel, OpenAction, SigningProblem, SigningStage } from '../respondent.view';
import { drawn, header, landing, layout, type Page, type PageContext, RESULT } from './respondent.pages';

export interface DocumentPreview {
  title: string;
  downloadUrl: string;
  /** Each page's size (points) and text (empty when it cannot be read here). */
  pages: { width: number; height: number; text: string }[];
  /** Whether page images can be drawn here (poppler's pdftoppm is installed). */
  images: boolean;
  imageUrl: (page: number) => string;
}

export interface SigningPageInput {
  view: OpenAction;
  ctx: PageContext;
  stage: SigningStage;
  document: DocumentPreview;
  contact: { name: string; channels: Channel[]; masked: Partial<Record<Channel, string>> };
  timeZone: string;
  consent: string;
  problem?: SigningProblem;
  triesLeft?: number;
  typedName?: string;
  /** A drawn signature sent with a refused form (a PNG data URL): drawn again, so it is not lost. */
  drawing?: string;
  /** The consent box was ticked on a refused form. */
  consented?: boolean;
  /** The earlier signer this one waits for (sequential order). */
  waitingFor?: string;
}

function preview(doc: DocumentPreview, input: SigningPageInput): Html {
  const t = signingTexts[input.ctx.lang];
  const pages = doc.pages;
  const list = doc.images
    ? html`<ol class="pages" role="list">${pages.map((p, i) => {
        const n = i + 1;
        return html`<li class="page"><img src="${doc.imageUrl(n)}" alt="${t.pageAlt(n, pages.length)}" width="1100" height="${Math.round((1100 * p.height) / p.width)}" loading="${n <= 2 ? 'eager' : 'lazy'}">${
          p.text
            ? html`<details><summary>${t.pageText(n)}</summary><pre lang="">${p.text}</pre></details>`
            : ''
        }</li>`;
      })}</ol>`
    : html`<p>${t.noPreview}</p>`;
  return html`<section aria-labelledby="doc-h"><h2 id="doc-h">${t.documentHeading(pages.length)}</h2>
<p><a href="${doc.downloadUrl}" download>${t.download}</a></p>
${list}</section>`;
}

/** A refused form's problem: the message the page lands on, which fields name as their description. */
function alertBox(lang: PageContext['lang'], problem: SigningProblem, more = ''): Html {
  return html`<div class="summary" role="alert"${landing}><p class="error" id="problems">${signingTexts[lang].problems[problem]}${more}</p></div>`;
}

function problemBox(input: SigningPageInput): Html {
  if (!input.problem) return html``;
  const t = signingTexts[input.ctx.lang];
  const tries =
    input.problem === 'wrong-code' && input.triesLeft !== undefined ? ` ${t.triesLeft(input.triesLeft)}` : '';
  return alertBox(input.ctx.lang, input.problem, tries);
}

/** A page waiting for the background: reloaded at its address without the fragment (which would not reload). */
const reloadSoon = (ctx: PageContext) => ({ seconds: 5, url: `/action/${ctx.code}?lang=${ctx.lang}` });

function codeRequestForm(input: SigningPageInput, label: string): Html {
  const t = signingTexts[input.ctx.lang];
  const { channels, masked } = input.contact;
  const choices = channels.map(
    (c, i) =>
      html`<div class="choice"><input type="radio" id="ch-${c}" name="channel" value="${c}"${i === 0 ? html` checked` : ''}><label for="ch-${c}">${c === 'email' ? t.byEmail(masked.email ?? '') : t.bySms(masked.sms ?? '')}</label></div>`,
  );
  return html`<form method="post" action="/action/${input.ctx.code}/sign/code?lang=${input.ctx.lang}#${RESULT}">
<input type="hidden" name="_csrf" value="${input.ctx.csrf}">
<fieldset class="question"><legend>${t.codeIntro}</legend>${choices}</fieldset>
<div class="actions"><button type="submit" class="primary">${label}</button></div>
</form>`;
}

function stageBody(input: SigningPageInput): Html {
  const { ctx, view } = input;
  const t = signingTexts[ctx.lang];
  const signer = view.signer!;
  // The message answering the last form: the problem when there is one, else the step's own status.
  const land = input.problem ? html`` : landing;
  const top = html`<h2 id="sign-h">${input.stage === 'sign' || input.stage === 'waiting' ? t.signHeading : t.stepHeading}</h2>${problemBox(input)}`;
  switch (input.stage) {
    case 'code':
      return html`${top}${codeRequestForm(input, t.sendCode)}`;
    case 'locked':
    case 'expired':
      return html`${top}<p class="notice" role="status"${land}>${input.stage === 'locked' ? t.locked : t.expired}</p>${codeRequestForm(input, t.sendNewCode)}`;
    case 'verify': {
      const how = t.how[signer.codeChannel ?? 'email'];
      const to = input.contact.masked[signer.codeChannel ?? 'email'] ?? '';
      const invalid = input.problem === 'wrong-code' ? html` aria-invalid="true"` : '';
      return html`${top}
<p class="notice" role="status"${land}>${t.sent(`${how} (${to})`, dateTimeWithZone(signer.codeExpiresAt!, input.timeZone))}</p>
<form method="post" action="/action/${ctx.code}/sign/verify?lang=${ctx.lang}#${RESULT}">
<input type="hidden" name="_csrf" value="${ctx.csrf}">
<div class="question"><label for="otp">${t.codeLabel}</label><p id="otp-hint" class="tag">${t.codeHint}</p>
<input type="text" class="code" id="otp" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="7" aria-describedby="otp-hint${input.problem ? ' problems' : ''}"${invalid} required></div>
<div class="actions"><button type="submit" class="primary">${t.confirm}</button></div>
</form>
<form method="post" action="/action/${ctx.code}/sign/code?lang=${ctx.lang}#${RESULT}">
<input type="hidden" name="_csrf" value="${ctx.csrf}"><input type="hidden" name="channel" value="${signer.codeChannel ?? ''}">
<div class="actions"><button type="submit">${t.sendNewCode}</button></div>
</form>`;
    }
    case 'sign':
      return html`${top}<p class="notice" role="status"${land}>${t.verified}</p>${signForm(input)}`;
    case 'waiting':
      return html`${top}<p class="notice" role="status"${land}>${t.waiting(input.waitingFor ?? '')}</p>`;
    default:
      return html``;
  }
}

/** The signature itself: typed (the default, and the only way without script) or drawn, and the consent. */
function signForm(input: SigningPageInput): Html {
  const { ctx } = input;
  const t = signingTexts[ctx.lang];
  const drawn = Boolean(input.drawing);
  const checked = html` checked`;
  return html`<form method="post" action="/action/${ctx.code}/sign?lang=${ctx.lang}#${RESULT}" id="sign-form">
<input type="hidden" name="_csrf" value="${ctx.csrf}">
<input type="hidden" name="drawing" id="drawing" value="${input.drawing ?? ''}">
<fieldset class="question"><legend>${t.markLegend}</legend>
<div class="choice"><input type="radio" id="mark-typed" name="mark" value="typed"${drawn ? '' : checked}><label for="mark-typed">${t.typed}</label></div>
<div class="choice" id="draw-choice" hidden><input type="radio" id="mark-drawn" name="mark" value="drawn"${drawn ? checked : ''}><label for="mark-drawn">${t.drawn}</label></div>
</fieldset>
<div class="question" id="typed-box"><label for="typed-name">${t.nameLabel}</label>
<input type="text" id="typed-name" name="typedName" autocomplete="name" maxlength="100" value="${input.typedName ?? input.contact.name}"></div>
<div class="question" id="drawn-box" hidden><p id="pad-hint" class="tag">${t.drawHint}</p>
<canvas class="pad" id="pad" role="img" aria-label="${t.drawLabel}" aria-describedby="pad-hint"></canvas>
<div class="actions"><button type="button" id="pad-clear">${t.clear}</button></div></div>
<div class="consent"><input type="checkbox" id="consent" name="consent" value="yes"${input.consented ? checked : ''}${input.problem === 'no-consent' ? html` aria-invalid="true" aria-describedby="problems"` : ''}><label for="consent"><strong>${t.consentLabel}</strong> ${input.consent}</label></div>
<div class="actions"><button type="submit" class="primary">${t.signButton(input.document.title)}</button></div>
</form>`;
}

// Drawing: pointer events on a canvas sized to its box; on submit the drawing goes in a hidden field as
// a PNG. A drawing sent back with a refused form is drawn again (decoded here: the page's policy loads
// no data: images) and sent as it was unless the signer draws anew. Without script the typed signature
// is the only choice (it works with a keyboard and a screen reader too).
const padScript = trusted(`(function(){var f=document.getElementById('sign-form');if(!f)return;
var c=document.getElementById('pad'),x=c.getContext('2d'),field=document.getElementById('drawing'),kept=field.value,drawn=false,down=false;
document.getElementById('draw-choice').hidden=false;
function fit(){var r=c.getBoundingClientRect(),d=window.devicePixelRatio||1;c.width=r.width*d;c.height=r.height*d;x.scale(d,d);x.lineWidth=2.5;x.lineCap='round';x.lineJoin='round';x.strokeStyle='#0d2673';drawn=false;
if(kept){var b=atob(kept.split(',')[1]||''),u=new Uint8Array(b.length);for(var k=0;k<b.length;k++)u[k]=b.charCodeAt(k);
createImageBitmap(new Blob([u],{type:'image/png'})).then(function(i){x.drawImage(i,0,0,r.width,r.height);c.setAttribute('data-drawn','')},function(){})}}
function mode(){var d=document.getElementById('mark-drawn').checked;document.getElementById('drawn-box').hidden=!d;document.getElementById('typed-box').hidden=d;if(d)fit()}
f.querySelectorAll('input[name=mark]').forEach(function(e){e.addEventListener('change',mode)});
function at(e){var r=c.getBoundingClientRect();return[e.clientX-r.left,e.clientY-r.top]}
c.addEventListener('pointerdown',function(e){if(kept){kept='';x.clearRect(0,0,c.width,c.height)}down=true;c.setPointerCapture(e.pointerId);var p=at(e);x.beginPath();x.moveTo(p[0],p[1]);x.lineTo(p[0]+.1,p[1]+.1);x.stroke();drawn=true;e.preventDefault()});
c.addEventListener('pointermove',function(e){if(!down)return;var p=at(e);x.lineTo(p[0],p[1]);x.stroke();e.preventDefault()});
['pointerup','pointercancel','pointerleave'].forEach(function(n){c.addEventListener(n,function(){down=false})});
document.getElementById('pad-clear').addEventListener('click',function(){x.clearRect(0,0,c.width,c.height);drawn=false;kept=''});
f.addEventListener('submit',function(){field.value=document.getElementById('mark-drawn').checked?(kept||(drawn?c.toDataURL('image/png'):'')):''});
mode();
})();`);

/** The signing step: the document page by page, then the step the signer is at. */
export function signingPage(input: SigningPageInput): Page {
  const { ctx, view } = input;
  if (input.stage === 'signed') return signedPage(input);
  const t = signingTexts[ctx.lang];
  const r = respondentTexts[ctx.lang];
  const body = html`<a class="skip" href="#sign-h">${t.skip}</a>
${header(view, ctx, r)}
<p class="kicker">${t.kicker}</p>
<h1>${input.document.title}</h1>
<p>${t.intro(view.organisation)}</p>
${preview(input.document, input)}
<section class="signing" aria-labelledby="sign-h">
${stageBody(input)}
</section>
<p class="decline"><a href="/action/${ctx.code}?step=decline&amp;lang=${ctx.lang}#${RESULT}">${t.declineLink}</a></p>`;
  const status = input.problem && input.problem !== 'closed' ? 400 : 200;
  return {
    status,
    html: layout(
      ctx.lang,
      `${input.document.title} — ${view.organisation}`,
      body,
      drawn(view, ctx, { script: padScript }),
    ),
  };
}

/**
 * A signer who has signed: when, and what comes next. While others still have to sign, the document is
 * not complete and the page says so; once everyone has, it refreshes itself until the sealed copy is
 * there (then the link shows the completed page with the download).
 */
function signedPage(input: SigningPageInput): Page {
  const { ctx, view } = input;
  const t = signingTexts[ctx.lang];
  const r = respondentTexts[ctx.lang];
  const signer = view.signer!;
  const others = view.signers.filter((s) => s.id !== signer.id && s.status !== 'signed').length;
  const body = html`${header(view, ctx, r)}
<p class="kicker">${t.kicker}</p>
<h1>${input.document.title}</h1>
<p class="notice" role="status"${landing}>${t.signed(dateTimeWithZone(signer.signedAt!, input.timeZone))} ${others > 0 ? t.othersPending(others) : t.preparing}</p>
<p><a href="${input.document.downloadUrl}" download>${t.download}</a></p>`;
  return {
    status: 200,
    html: layout(
      ctx.lang,
      `${input.document.title} — ${view.organisation}`,
      body,
      drawn(view, ctx, others > 0 ? {} : { refresh: reloadSoon(ctx) }),
    ),
  };
}

/**
 * Declining: a reason, then the action closes for every signer. `needsCode`: the organisation requires
 * a confirmed code first and this browser has none: the page says so and leads back to ask for one.
 */
export function declinePage(
  view: OpenAction,
  ctx: PageContext,
  title: string,
  opts: { problem?: SigningProblem; reason?: string; needsCode?: boolean } = {},
): Page {
  const t = signingTexts[ctx.lang];
  const r = respondentTexts[ctx.lang];
  const problem = opts.problem ? alertBox(ctx.lang, opts.problem) : '';
  const back = html`<p><a href="/action/${ctx.code}?lang=${ctx.lang}">${t.backToDocument}</a></p>`;
  const form = opts.needsCode
    ? html`${opts.problem ? '' : html`<p class="notice" role="status">${t.problems['decline-needs-code']}</p>`}`
    : html`<form method="post" action="/action/${ctx.code}/decline?lang=${ctx.lang}#${RESULT}">
<input type="hidden" name="_csrf" value="${ctx.csrf}">
<div class="question"><label for="reason">${t.reasonLabel} <span class="tag">(${r.required})</span></label>
<textarea id="reason" name="reason" maxlength="1000" aria-required="true"${opts.problem ? html` aria-invalid="true" aria-describedby="problems"` : ''}>${opts.reason ?? ''}</textarea></div>
<div class="actions"><button type="submit" class="primary">${t.declineButton}</button></div>
</form>`;
  const body = html`${header(view, ctx, r, html`step=decline&`)}
<p class="kicker">${title}</p>
<h1${opts.problem ? '' : landing}>${t.declineHeading}</h1>
<p>${t.declineIntro}</p>${problem}
${form}
${back}`;
  return {
    status: opts.problem ? 400 : 200,
    html: layout(ctx.lang, `${t.declineHeading} — ${view.organisation}`, body, drawn(view, ctx)),
  };
}

/** A signer who cannot act yet: the questionnaire is answered first, or its report is being made. */
export function signingWaitPage(
  view: OpenAction,
  ctx: PageContext,
  reason: { kind: 'questionnaire'; by: string } | { kind: 'preparing' },
  problem?: SigningProblem,
): Page {
  const t = signingTexts[ctx.lang];
  const alert = problem ? alertBox(ctx.lang, problem) : '';
  const r = respondentTexts[ctx.lang];
  const text = reason.kind === 'questionnaire' ? t.questionnaireFirst(reason.by) : t.preparingDocument;
  const refresh =
    reason.kind === 'preparing'
      ? html`<p><a href="/action/${ctx.code}?lang=${ctx.lang}">${t.refresh}</a></p>`
      : '';
  return {
    status: problem ? 400 : 200,
    html: layout(
      ctx.lang,
      view.organisation,
      html`${header(view, ctx, r)}<p class="kicker">${t.kicker}</p><h1>${view.parts.map((p) => p.name).join(', ')}</h1>\n${alert}<p role="status"${problem ? '' : landing}>${text}</p>${refresh}`,
      drawn(view, ctx, reason.kind === 'preparing' ? { refresh: reloadSoon(ctx) } : {}),
    ),
  };
}

/** A signing action that every signer has signed and that is sealed. */
export function signedDonePage(view: OpenAction, ctx: PageContext, downloadUrl?: string): Page {
  const t = signingTexts[ctx.lang];
  const r = respondentTexts[ctx.lang];
  const download = downloadUrl
    ? html`\n<p><a href="${downloadUrl}" download>${t.downloadSigned}</a></p>`
    : '';
  return {
    status: 200,
    html: layout(
      ctx.lang,
      view.organisation,
      html`${header(view, ctx, r)}<h1${landing}>${t.completed[0]}</h1>\n<p>${t.completed[1]}</p>${download}`,
      drawn(view, ctx),
    ),
  };
}
