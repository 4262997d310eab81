import { integrationWords } from '../../../i18n/desk-integrations';
import { type WebhookNotice, type WebhookWords, webhookWords } from '../../../i18n/desk-webhooks';
import { eventTypes } from '../../../platform/events/event-types';
import { type Html, html } from '../../../platform/web/html';
import {
  csrfField,
  framed,
  pageNotices,
  problemList,
  type StaffPageFrame,
  secretBox,
  staffLayout,
  when,
} from '../../../platform/web/staff-layout';
import type { Webhook, WebhookDelivery, WebhookTestResult } from '../../webhooks';

export type WebhookRow = Webhook;

/** A problem of the webhook form, said in the page's words (the router does not know the language). */
export type WebhookProblem = (w: WebhookWords['list']) => string;

/** A page's problems in its words: a service's refusal as it says it, the form's own in the language. */
export const webhookProblems = (
  f: StaffPageFrame,
  problems: readonly (string | WebhookProblem)[] | undefined,
) => problems?.map((p) => (typeof p === 'string' ? p : p(webhookWords[f.lang].list)));

/** What the add or change form shows: what was sent (refused) or the webhook as it is. */
export interface WebhookFormValues {
  url: string;
  description: string;
  events: readonly string[];
}

const webhookCss = `
pre.sent{white-space:pre-wrap;word-break:break-all;background:#f5f6f8;border:1px solid #d0d4da;border-radius:6px;padding:.5rem;max-height:16rem;overflow:auto;font-size:.85rem}
.events{columns:2 18rem}.events .choice{break-inside:avoid}
`;

/** The events a webhook sends, in words: all of them, or each by name. */
function eventsOf(f: StaffPageFrame, events: readonly string[]): string {
  const w = webhookWords[f.lang].list;
  if (events.includes('*')) return w.allEvents;
  return events.map((e) => w.eventNames[e] ?? e).join(', ');
}

/** A webhook's state in words: active, failing since when, or disabled (by an administrator or us). */
function stateOf(f: StaffPageFrame, h: Webhook): Html {
  const w = webhookWords[f.lang].list;
  const i = integrationWords[f.lang];
  if (!h.enabled) return html`${h.disabledReason ? w.disabledAfterFailures : i.disabledAt}`;
  if (h.failingSince) return html`${w.failingSince} ${when(f, h.failingSince)}`;
  return html`${i.active}`;
}

/** The fields of the add and change forms: address, description, events. */
function webhookFields(f: StaffPageFrame, prefix: string, v: WebhookFormValues): Html {
  const w = webhookWords[f.lang].list;
  const all = v.events.includes('*');
  return html`<div class="field"><label for="${prefix}-url">${w.address}</label><input type="url" id="${prefix}-url" name="url" required maxlength="2000" autocomplete="off" inputmode="url" value="${v.url}" aria-describedby="${prefix}-url-hint"><p class="hint" id="${prefix}-url-hint">${w.addressHint}</p></div>
<div class="field"><label for="${prefix}-description">${w.description}</label><input type="text" id="${prefix}-description" name="description" maxlength="500" autocomplete="off" value="${v.description}"></div>
<fieldset class="field" aria-describedby="${prefix}-events-hint"><legend>${w.eventsLegend}</legend><p class="hint" id="${prefix}-events-hint">${w.eventsHint}</p>
<div class="choice"><input type="checkbox" id="${prefix}-ev-all" name="events" value="*"${all ? html` checked` : ''}> <label for="${prefix}-ev-all">${w.everyEvent}</label></div>
<div class="events">${eventTypes.map(
    (e, n) =>
      html`<div class="choice"><input type="checkbox" id="${prefix}-ev-${n}" name="events" value="${e}"${!all && v.events.includes(e) ? html` checked` : ''}> <label for="${prefix}-ev-${n}">${w.eventNames[e] ?? e}</label></div>`,
  )}</div></fieldset>`;
}

/** The webhooks part of the Integrations page: the list, and the form that adds one. */
export function webhooksSection(f: StaffPageFrame, rows: readonly Webhook[], form?: WebhookFormValues): Html {
  const w = webhookWords[f.lang].list;
  return html`<h2 id="webhooks">${w.heading}</h2>
<p>${w.intro}</p>
${
  rows.length
    ? html`<table class="stack"><caption class="skip">${w.caption}</caption><thead><tr><th scope="col">${w.address}</th><th scope="col">${w.events}</th><th scope="col">${w.description}</th><th scope="col">${w.status}</th></tr></thead><tbody>${rows.map(
        (h) =>
          html`<tr><td><a href="/staff/integrations/webhooks/${h._id}">${h.url}</a></td><td data-label="${w.events}">${eventsOf(f, h.events)}</td><td data-label="${w.description}">${h.description ?? ''}</td><td data-label="${w.status}">${stateOf(f, h)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${w.none}</p>`
}
<h3 id="add-webhook">${w.add}</h3>
<form method="post" action="/staff/integrations/webhooks" novalidate>${csrfField(f.csrf)}
${webhookFields(f, 'new', form ?? { url: '', description: '', events: ['*'] })}
<div class="row"><button type="submit" class="primary">${w.addButton}</button></div>
</form>`;
}

export interface WebhookPageView {
  webhook: Webhook;
  deliveries: WebhookDelivery[];
  total: number;
  page: number;
  limit: number;
  /** Only the messages in this state. */
  filter?: string;
  /** The signing secret just made (added, or a new one): shown this once. */
  secret?: string;
  notice?: WebhookNotice;
  problems?: readonly (string | WebhookProblem)[];
  /** The answer to a test message just sent. */
  test?: WebhookTestResult;
  /** The change form as sent, when refused. */
  form?: WebhookFormValues;
}

/** One delivery as a table row: event, when, state, attempts, answer; what was sent and answered. */
function deliveryRow(f: StaffPageFrame, base: string, d: WebhookDelivery): Html {
  const w = webhookWords[f.lang].page;
  const l = webhookWords[f.lang].list;
  const name = l.eventNames[d.eventType] ?? d.eventType;
  const answer = d.responseStatus
    ? `${d.responseStatus}${d.durationMs !== null ? ` · ${d.durationMs} ms` : ''}`
    : w.noAnswer;
  const detail =
    d.request || d.responseBody
      ? html`<details><summary>${w.sent}</summary>${d.request ? html`<pre class="sent">${d.request.body}</pre>` : ''}${
          d.responseBody ? html`<p>${w.body}</p><pre class="sent">${d.responseBody}</pre>` : ''
        }</details>`
      : '';
  const again =
    d.status === 'pending'
      ? ''
      : html`<form method="post" action="${base}/deliveries/${d._id}/redeliver">${csrfField(f.csrf)}<button type="submit" aria-label="${w.redeliverLabel(name)}">${w.redeliver}</button></form>`;
  return html`<tr><td>${name}<br><code>${d.eventType}</code></td><td data-label="${w.queued}">${when(f, d.createdAt)}</td><td data-label="${l.status}"><span class="status">${w.deliveryStatus[d.status] ?? d.status}</span>${
    d.nextAttemptAt ? html`<br>${w.nextAttempt}: ${when(f, d.nextAttemptAt)}` : ''
  }</td><td data-label="${w.attempts}">${d.attempts}${d.lastAttemptAt ? html`<br>${when(f, d.lastAttemptAt)}` : ''}</td><td data-label="${w.answered}">${answer}${
    d.lastError ? html`<br><span class="error">${w.error}: ${d.lastError}</span>` : ''
  }${detail}</td><td>${again}</td></tr>`;
}

/** A webhook's page: what it sends where, its secrets, test, change, disable, delete, its messages. */
export function webhookPage(f: StaffPageFrame, v: WebhookPageView): string {
  const w = webhookWords[f.lang].page;
  const l = webhookWords[f.lang].list;
  const h = v.webhook;
  const base = `/staff/integrations/webhooks/${h._id}`;
  const post = (path: string, label: string, cls = '', confirm = '', extra: Html | string = '') =>
    html`<form method="post" action="${base}/${path}">${csrfField(f.csrf)}${extra}<button type="submit"${cls ? html` class="${cls}"` : ''}${confirm ? html` data-confirm="${confirm}"` : ''}>${label}</button></form>`;
  const t = v.test;
  const pages = Math.max(1, Math.ceil(v.total / v.limit));
  const at = (n: number) => `${base}?page=${n}${v.filter ? `&status=${v.filter}` : ''}#deliveries`;
  return staffLayout({
    ...framed(f),
    title: h.description || h.url,
    area: 'integrations',
    css: webhookCss,
    body: html`<p><a href="/staff/integrations#webhooks">${w.back}</a></p>
<h1>${h.description || l.heading}</h1>
${pageNotices(v.notice ? l.notices[v.notice] : undefined)}
${problemList(f, webhookProblems(f, v.problems))}
${v.secret ? secretBox(f, 'new-secret', w.secretOf, v.secret) : ''}
${
  t
    ? html`<div class="${t.delivered ? 'notice' : 'summary'}" role="${t.delivered ? 'status' : 'alert'}" id="test-result" tabindex="-1"><p>${
        t.delivered
          ? w.testDelivered(t.responseStatus ?? 0, t.durationMs)
          : w.testFailed(t.error ?? `${t.responseStatus ?? ''}`)
      }</p>${t.responseBody ? html`<p>${w.answer}:</p><pre class="sent">${t.responseBody}</pre>` : ''}</div>`
    : ''
}
<dl class="facts"><dt>${l.address}</dt><dd><code>${h.url}</code></dd><dt>${l.events}</dt><dd>${eventsOf(f, h.events)}</dd>
<dt>${l.status}</dt><dd>${stateOf(f, h)}</dd>
<dt>${w.secrets}</dt><dd>${h.secrets.map(
      (s, n) =>
        html`${n ? html`<br>` : ''}${s.expiresAt ? html`${w.replacedUntil} ${when(f, s.expiresAt)}` : html`${w.currentSince} ${when(f, s.createdAt)}`}`,
    )}</dd>
<dt>${w.created}</dt><dd>${when(f, h.createdAt)}</dd></dl>
<div class="row">${h.enabled ? post('test', w.test, 'primary') : ''}${post('rotate', w.rotate, '', w.confirmRotate)}${
      h.enabled ? post('disable', w.disable, 'danger', w.confirmDisable) : post('enable', w.enable)
    }${post('delete', w.remove, 'danger', w.confirmRemove)}</div>
<h2 id="deliveries">${w.deliveries(v.total)}</h2>
<form method="get" action="${base}" class="filters"><div class="field"><label for="status">${w.statusFilter}</label><select id="status" name="status"><option value="">${w.anyStatus}</option>${Object.entries(
      w.deliveryStatus,
    ).map(
      ([s, label]) => html`<option value="${s}"${v.filter === s ? html` selected` : ''}>${label}</option>`,
    )}</select></div><button type="submit">${w.show}</button></form>
${
  v.deliveries.length
    ? html`<table class="stack"><caption class="skip">${w.deliveriesCaption}</caption><thead><tr><th scope="col">${w.event}</th><th scope="col">${w.queued}</th><th scope="col">${l.status}</th><th scope="col">${w.attempts}</th><th scope="col">${w.answered}</th><th scope="col"><span class="skip">${integrationWords[f.lang].actions}</span></th></tr></thead><tbody>${v.deliveries.map(
        (d) => deliveryRow(f, base, d),
      )}</tbody></table>
${pages > 1 ? html`<nav class="pager" aria-label="${w.deliveries(v.total)}">${v.page > 1 ? html`<a href="${at(v.page - 1)}">${w.previous}</a>` : ''}<span>${v.page} / ${pages}</span>${v.page < pages ? html`<a href="${at(v.page + 1)}">${w.next}</a>` : ''}</nav>` : ''}`
    : html`<p>${w.noDeliveries}</p>`
}
<h2 id="change">${w.change}</h2>
<form method="post" action="${base}" novalidate>${csrfField(f.csrf)}
${webhookFields(f, 'edit', v.form ?? { url: h.url, description: h.description ?? '', events: h.events })}
<div class="row"><button type="submit">${w.save}</button></div>
</form>`,
  });
}
