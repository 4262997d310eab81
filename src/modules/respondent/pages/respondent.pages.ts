import { type Language, languageNames, languages } from '../../../i18n/languages';
import {
  errorTitles,
  otherErrorTitle,
  type RespondentTexts,
  respondentTexts,
} from '../../../i18n/respondent';
import { signingTexts } from '../../../i18n/signing';
import { htmlDocument } from '../../../platform/web/document-layout';
import { type Html, html, joinHtml, trusted } from '../../../platform/web/html';
import type { Question } from '../../questionlists';
import {
  type AnswerIssue,
  type Answers,
  type AnswerValue,
  answerOf,
  draftOf,
  isVisible,
  questionsOf,
  readable,
} from '../answers';
import type { OpenAction, Step } from '../respondent.view';
import { brandCss, brandLogo, type PageBrand } from './brand';

export interface Page {
  status: number;
  html: string;
}
export interface PageContext {
  code: string;
  lang: Language;
  csrf: string;
  nonce: string;
}

/** The contact’s pages: one narrow column, on top of the shared base look. */
const css = `
main{max-width:40rem;margin:0 auto;padding:1rem;background:#fff;min-height:100vh}
header{border-bottom:1px solid #d0d4da;margin-bottom:1rem;padding-bottom:.5rem}
.org{font-weight:700;font-size:1.25rem;margin:0}
.logo{display:block;height:3rem;width:auto;max-width:14rem;margin:0 0 .35rem}
nav.langs{font-size:.95rem;margin:.25rem 0}
nav.langs a,nav.langs span{margin-right:.75rem}
nav.langs span{font-weight:700}
.progress{color:#44474f;font-size:.95rem;margin:0}
.question{margin:1.25rem 0;border:0;padding:0}
.question>label,.question>legend{display:block;font-weight:600;margin-bottom:.35rem}
input[type=text],input[type=email],input[type=tel],input[type=date],textarea{width:100%;padding:.65rem;border:2px solid #5f6368;border-radius:6px;font:inherit;color:inherit;background:#fff}
textarea{min-height:7rem}
.choice{display:flex;align-items:center;gap:.6rem;padding:.45rem 0}
.choice input{width:1.35rem;height:1.35rem;margin:0}
.actions{display:flex;flex-direction:column;gap:.75rem;margin:1.5rem 0}
button{font:inherit;font-weight:600;padding:.75rem 1.25rem;border-radius:6px;border:2px solid #0b57d0;background:#fff;color:#0b57d0;cursor:pointer;min-height:2.75rem}
button.primary{background:#0b57d0;color:#fff}
#result{scroll-margin-top:.75rem}
dl{margin:0}dt{font-weight:600;margin-top:.6rem}dd{margin:0 0 .25rem 0}
.kicker{color:#44474f;font-size:.95rem;margin:0}
.pages{margin:1rem 0;padding:0;list-style:none}
.page{margin:0 0 1rem;border:1px solid #d0d4da;border-radius:4px;padding:.25rem;background:#fafafa}
.page img{display:block;width:100%;height:auto;background:#fff}
.page details{font-size:.9rem;margin:.25rem}
.page pre{white-space:pre-wrap;font:inherit;margin:.5rem 0}
.signing{border-top:2px solid #d0d4da;margin-top:1.5rem;padding-top:.5rem}
.pad{display:block;width:100%;height:11rem;border:2px solid #5f6368;border-radius:6px;background:#fff;touch-action:none}
.consent{display:flex;gap:.6rem;align-items:flex-start;margin:1rem 0}
.consent input{width:1.35rem;height:1.35rem;margin:.2rem 0 0;flex:none}
input.code{font-size:1.5rem;letter-spacing:.3em;max-width:12rem}
.decline{margin-top:2rem;font-size:.95rem}
@media (min-width:48rem){main{margin:2rem auto;min-height:auto;border-radius:8px;padding:2rem}.actions{flex-direction:row;flex-wrap:wrap}}
`;

/**
 * Where a page lands after a form post: the message that answers it (`id="result"`, the fragment every
 * contact's form posts to and every redirect after one carries). The browser scrolls to it without
 * script; the script moves the keyboard and screen reader focus there too. Buttons keep their order in
 * the page (the primary one first), so what is seen, tabbed through and read is in the same order.
 */
export const RESULT = 'result';
const landingScript = `(function(){var e=location.hash==='#${RESULT}'&&document.getElementById('${RESULT}');if(e){e.focus()}})();`;

/** The attributes of the element a page lands on (see RESULT). */
export const landing = html` id="${RESULT}" tabindex="-1"`;

/** How a page is drawn beyond its words: its script (with the nonce), reload, the organisation's look. */
export interface PageOptions {
  nonce?: string;
  /** The body of the page's own inline script (run with `nonce`). */
  script?: Html;
  /** Reload the page (one waiting for something made in the background). */
  refresh?: { seconds: number; url: string };
  /** The organisation's colour for buttons and links (readable on white) and its logo. */
  brand?: PageBrand;
}

/** The whole page, as the string sent to the browser. */
export function layout(lang: Language, title: string, body: Html, opts: PageOptions = {}): string {
  const { nonce, script } = opts;
  return htmlDocument({
    lang,
    title,
    css: css + brandCss(opts.brand),
    body: html`<main>
${body}
</main>`,
    script: nonce ? { nonce, code: trusted(landingScript + (script?.toString() ?? '')) } : undefined,
    refresh: opts.refresh,
  });
}

/** A page of an open action: with the response's nonce and the organisation's look. */
export const drawn = (
  view: OpenAction,
  ctx: PageContext,
  more: Omit<PageOptions, 'nonce' | 'brand'> = {},
) => ({
  nonce: ctx.nonce,
  brand: view.brand,
  ...more,
});

export function unknownPage(): Page {
  const body = joinHtml(
    languages.map(
      (l) =>
        html`<section lang="${l}"><h1>${respondentTexts[l].unknown[0]}</h1><p>${respondentTexts[l].unknown[1]}</p></section>`,
    ),
    '\n',
  );
  return { status: 404, html: layout('en', respondentTexts.en.unknown[0], body) };
}

export function gonePage(lang: Language, declined = false): Page {
  const t = declined ? signingTexts[lang].declined : respondentTexts[lang].gone;
  return { status: 410, html: layout(lang, t[0], html`<h1>${t[0]}</h1>\n<p>${t[1]}</p>`) };
}

export function messagePage(lang: Language, status: number, title: string, text: string): Page {
  return { status, html: layout(lang, title, html`<h1>${title}</h1>\n<p>${text}</p>`) };
}

/**
 * The page's header: the organisation and the links to the other languages. `here` is the start of
 * those links' query, written by the page itself (html`step=${index}&`), so its `&` stays as written.
 */
export function header(view: OpenAction, ctx: PageContext, t: RespondentTexts, here: Html = html``): Html {
  const langs =
    view.languages.length > 1
      ? html`<nav class="langs" aria-label="${t.language}">${view.languages.map((l) =>
          l === ctx.lang
            ? html`<span aria-current="true" lang="${l}">${languageNames[l]}</span>`
            : html`<a href="/action/${ctx.code}?${here}lang=${l}" lang="${l}" hreflang="${l}">${languageNames[l]}</a>`,
        )}</nav>`
      : '';
  return html`<header>${brandLogo(view.brand)}<p class="org">${view.organisation}</p>${langs}</header>`;
}

export function donePage(view: OpenAction, ctx: PageContext): Page {
  const t = respondentTexts[ctx.lang];
  return {
    status: 200,
    html: layout(
      ctx.lang,
      view.organisation,
      html`${header(view, ctx, t)}<h1${landing}>${t.done[0]}</h1>\n<p>${t.done[1]}</p>`,
      drawn(view, ctx),
    ),
  };
}

export function signPage(view: OpenAction, ctx: PageContext): Page {
  const t = respondentTexts[ctx.lang];
  return {
    status: 200,
    html: layout(ctx.lang, view.organisation, html`${header(view, ctx, t)}<p>${t.sign}</p>`, {
      brand: view.brand,
    }),
  };
}

const formValue = (v: AnswerValue | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : typeof v === 'boolean' ? [v ? 'yes' : 'no'] : [String(v)];

function field(
  q: Question,
  value: AnswerValue | undefined,
  issue: AnswerIssue | undefined,
  ctx: PageContext,
  /** Attributes for the question's box (its condition), written by the page. */
  extra: Html,
): Html {
  const t = respondentTexts[ctx.lang];
  const id = `q-${q.id}`;
  const name = `q.${q.id}`;
  const title = q.title[ctx.lang] ?? q.id;
  const tag = html`<span class="tag">(${q.required ? t.required : t.optional})</span>`;
  const err = issue ? html`<p class="error" id="e-${q.id}">${t.problems[issue.problem]}</p>` : '';
  const described = [q.description ? `d-${q.id}` : '', issue ? `e-${q.id}` : ''].filter(Boolean).join(' ');
  // A fieldset takes aria-describedby and aria-invalid, but not aria-required.
  const ariaGroup = html`${described ? html` aria-describedby="${described}"` : ''}${issue ? html` aria-invalid="true"` : ''}`;
  const aria = html`${ariaGroup}${q.required ? html` aria-required="true"` : ''}`;
  const desc = q.description?.[ctx.lang]
    ? html`<p id="d-${q.id}" class="tag">${q.description[ctx.lang]}</p>`
    : '';
  const values = formValue(value);
  const choices = (options: { value: string; label: string }[], type: 'radio' | 'checkbox') =>
    html`<fieldset class="question" data-q="${q.id}"${extra}${ariaGroup}><legend>${title} ${tag}</legend>${desc}${options.map(
      (o, i) =>
        html`<div class="choice"><input type="${type}" id="${id}-${i}" name="${name}" value="${o.value}"${values.includes(o.value) ? html` checked` : ''}><label for="${id}-${i}">${o.label}</label></div>`,
    )}${err}</fieldset>`;
  switch (q.type) {
    case 'yes_no':
      return choices(
        [
          { value: 'yes', label: t.yes },
          { value: 'no', label: t.no },
        ],
        'radio',
      );
    case 'single_choice':
    case 'multiple_choice':
      return choices(
        (q.options ?? []).map((o) => ({ value: o.value, label: o.label[ctx.lang] ?? o.value })),
        q.type === 'single_choice' ? 'radio' : 'checkbox',
      );
    case 'long_text':
      return html`<div class="question" data-q="${q.id}"${extra}><label for="${id}">${title} ${tag}</label>${desc}<textarea id="${id}" name="${name}"${aria}>${values[0] ?? ''}</textarea>${err}</div>`;
    default: {
      const input =
        q.type === 'email'
          ? html`type="email" autocomplete="email"`
          : q.type === 'phone'
            ? html`type="tel" autocomplete="tel"`
            : q.type === 'date'
              ? html`type="date"`
              : q.type === 'number'
                ? html`type="text" inputmode="decimal"`
                : html`type="text"`;
      return html`<div class="question" data-q="${q.id}"${extra}><label for="${id}">${title} ${tag}</label>${desc}<input ${input} id="${id}" name="${name}" value="${values[0] ?? ''}"${aria}>${err}</div>`;
    }
  }
}

// Shows and hides questions whose condition depends on an answer on the same page, as the contact
// answers; the server applies the same conditions when it saves.
const conditionScript = trusted(`(function(){var f=document.querySelector('form[data-step]');if(!f)return;
function val(n){var o=[];f.querySelectorAll('[name="q.'+n+'"]').forEach(function(e){if(e.type==='radio'||e.type==='checkbox'){if(e.checked)o.push(e.value)}else if(e.value!=='')o.push(e.value)});return o}
function up(){f.querySelectorAll('[data-cond-q]').forEach(function(w){var s=val(w.getAttribute('data-cond-q')).indexOf(w.getAttribute('data-cond-v'))>=0;w.hidden=!s;w.querySelectorAll('input,textarea').forEach(function(i){i.disabled=!s})})}
f.addEventListener('change',up);f.addEventListener('input',up);up()})();`);

export function stepPage(
  view: OpenAction,
  ctx: PageContext,
  step: Step,
  opts: { issues?: AnswerIssue[]; values?: Answers; notice?: string } = {},
): Page {
  const t = respondentTexts[ctx.lang];
  const values = draftOf(view.draft, step.part.listId);
  if (opts.values) for (const id of Object.keys(opts.values)) values[id] = answerOf(opts.values, id)!;
  const byId = questionsOf(step.part.sections);
  const onPage = new Set(step.section.questions.map((q) => q.id));
  const issues = new Map((opts.issues ?? []).map((i) => [i.questionId, i]));
  const fields = joinHtml(
    step.section.questions.map((q) => {
      const cond = q.condition;
      if (cond && !onPage.has(cond.questionId)) {
        // Depends on an earlier page: decided here, from the saved answers.
        return isVisible(q, values, byId)
          ? field(q, answerOf(values, q.id), issues.get(q.id), ctx, html``)
          : '';
      }
      const extra = cond
        ? html` data-cond-q="${cond.questionId}" data-cond-v="${cond.equals === true ? 'yes' : cond.equals === false ? 'no' : String(cond.equals)}"${isVisible(q, values, byId) ? '' : html` hidden`}`
        : html``;
      return field(q, answerOf(values, q.id), issues.get(q.id), ctx, extra);
    }),
    '\n',
  );
  const summary =
    issues.size > 0
      ? html`<div class="summary" role="alert"${landing}><h2>${t.errorsTitle}</h2><ul>${[
          ...issues.values(),
        ].map(
          (i) =>
            html`<li><a href="#q-${i.questionId}">${byId.get(i.questionId)?.title[ctx.lang] ?? i.questionId}</a>: ${t.problems[i.problem]}</li>`,
        )}</ul></div>`
      : '';
  const notice = opts.notice ? html`<p class="notice" role="status"${landing}>${opts.notice}</p>` : '';
  const last = step.index === view.steps.length - 1;
  const here = html`step=${step.index}&`;
  const body = html`${header(view, ctx, t, here)}
<p class="progress">${t.step(step.index + 1, view.steps.length)} · ${step.part.name}</p>
<h1>${step.section.title[ctx.lang] ?? step.section.id}</h1>
${step.index === 0 && !opts.issues ? html`<p>${view.visitor ? t.visitor.resume : t.intro}</p>` : ''}${notice}${summary}
<form method="post" action="/action/${ctx.code}?lang=${ctx.lang}#${RESULT}" novalidate data-step="${step.index}">
<input type="hidden" name="_csrf" value="${ctx.csrf}">
<input type="hidden" name="step" value="${step.index}">
${fields}
<div class="actions">
<button type="submit" name="nav" value="next" class="primary">${last ? t.toReview : t.next}</button>
${step.index > 0 ? html`<button type="submit" name="nav" value="back" class="back">${t.back}</button>` : ''}
<button type="submit" name="nav" value="save" class="later">${t.later}</button>
</div>
</form>`;
  return {
    status: issues.size > 0 ? 400 : 200,
    html: layout(
      ctx.lang,
      `${step.section.title[ctx.lang] ?? ''} — ${view.organisation}`,
      body,
      drawn(view, ctx, { script: conditionScript }),
    ),
  };
}

/** A campaign's first page: who is answering (a contact is created or matched by e-mail). */
export function startPage(
  view: OpenAction,
  ctx: PageContext,
  opts: { issues?: AnswerIssue[]; sent?: Map<string, string> } = {},
): Page {
  const t = respondentTexts[ctx.lang];
  const issues = new Map((opts.issues ?? []).map((i) => [i.questionId, i]));
  const input = (name: 'firstName' | 'lastName' | 'email', type: string, autocomplete: string) => {
    const issue = issues.get(name);
    const err = issue ? html`<p class="error" id="e-${name}">${t.problems[issue.problem]}</p>` : '';
    const aria = html`aria-required="true"${issue ? html` aria-describedby="e-${name}" aria-invalid="true"` : ''}`;
    return html`<div class="question"><label for="f-${name}">${t.visitor[name]} <span class="tag">(${t.required})</span></label><input type="${type}" id="f-${name}" name="${name}" autocomplete="${autocomplete}" value="${opts.sent?.get(name) ?? ''}" ${aria}>${err}</div>`;
  };
  const summary =
    issues.size > 0
      ? html`<div class="summary" role="alert"${landing}><h2>${t.errorsTitle}</h2><ul>${[
          ...issues.values(),
        ].map(
          (i) =>
            html`<li><a href="#f-${i.questionId}">${t.visitor[i.questionId as 'email'] ?? ''}</a>: ${t.problems[i.problem]}</li>`,
        )}</ul></div>`
      : '';
  const body = html`${header(view, ctx, t)}
<h1>${view.parts.map((p) => p.name).join(', ')}</h1>
<p>${t.visitor.intro}</p>${summary}
<form method="post" action="/action/${ctx.code}/start?lang=${ctx.lang}#${RESULT}" novalidate>
<input type="hidden" name="_csrf" value="${ctx.csrf}">
${input('firstName', 'text', 'given-name')}
${input('lastName', 'text', 'family-name')}
${input('email', 'email', 'email')}
<div class="actions"><button type="submit" class="primary">${t.visitor.start}</button></div>
</form>`;
  return {
    status: issues.size > 0 ? 400 : 200,
    html: layout(ctx.lang, view.organisation, body, drawn(view, ctx)),
  };
}

export function reviewPage(view: OpenAction, ctx: PageContext): Page {
  const t = respondentTexts[ctx.lang];
  const sections = joinHtml(
    view.steps.map((step) => {
      const answers = draftOf(view.draft, step.part.listId);
      const byId = questionsOf(step.part.sections);
      const items = step.section.questions
        .filter((q) => isVisible(q, answers, byId))
        .map((q) => {
          const v = answerOf(answers, q.id);
          return html`<dt>${q.title[ctx.lang] ?? q.id}</dt><dd>${v === undefined ? t.noAnswer : readable(q, v, ctx.lang)}</dd>`;
        });
      return html`<h2>${step.section.title[ctx.lang] ?? step.section.id}</h2><dl>${items}</dl><p><a href="/action/${ctx.code}?step=${step.index}&lang=${ctx.lang}">${t.change}<span class="tag"> — ${step.section.title[ctx.lang] ?? ''}</span></a></p>`;
    }),
    '\n',
  );
  const body = html`${header(view, ctx, t, html`step=review&`)}
<h1>${t.review}</h1>
<p>${t.reviewIntro}</p>
${sections}
<form method="post" action="/action/${ctx.code}/submit?lang=${ctx.lang}#${RESULT}">
<input type="hidden" name="_csrf" value="${ctx.csrf}">
<div class="actions"><button type="submit" class="primary">${t.submit}</button></div>
</form>`;
  return {
    status: 200,
    html: layout(ctx.lang, `${t.review} — ${view.organisation}`, body, drawn(view, ctx)),
  };
}

/** The page for an error met before or outside the page's own answers (a malformed form, a body too large). */
export function errorPage(status: number, message: string): string {
  const title = errorTitles[status] ?? otherErrorTitle;
  return messagePage('en', status, title, message).html;
}
