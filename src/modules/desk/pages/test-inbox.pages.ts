import { testInboxWords } from '../../../i18n/desk-test-inbox';
import { html } from '../../../platform/web/html';
import { framed, type StaffPageFrame, staffLayout, when } from '../../../platform/web/staff-layout';
import type { TestMessage } from '../../testmode';

export interface TestInboxView {
  /** False while the organisation has no test data (no test twin yet). */
  twin: boolean;
  messages: TestMessage[];
  /** More messages than shown. */
  more: boolean;
  shown: number;
  /** The recipient filtered on, as typed. */
  to: string;
}

/** One message: who, what, when, its code and links in full, its text behind a disclosure. */
function message(f: StaffPageFrame, m: TestMessage, i: number) {
  const w = testInboxWords[f.lang];
  const title = m.subject ?? m.text.split('\n')[0]?.slice(0, 120) ?? '';
  return html`<li><article aria-labelledby="m${i}"><h2 id="m${i}">${title}</h2>
<dl class="facts"><dt>${w.to}</dt><dd>${m.to}</dd><dt>${w.channel}</dt><dd>${w.channels[m.channel]}</dd><dt>${w.kind}</dt><dd>${w.kinds[m.kind] ?? m.kind}</dd><dt>${w.at}</dt><dd>${when(f, m.createdAt)}</dd>${
    m.code ? html`<dt>${w.code}</dt><dd><strong><code>${m.code}</code></strong></dd>` : ''
  }${
    m.links.length
      ? html`<dt>${w.links}</dt><dd><ul class="plain">${m.links.map((l) => html`<li><a href="${l}">${l}</a></li>`)}</ul></dd>`
      : ''
  }${
    m.attachments.length
      ? html`<dt>${w.attachments}</dt><dd>${m.attachments.map((a) => a.filename).join(', ')}</dd>`
      : ''
  }</dl>
<details><summary>${w.text}</summary><pre class="message">${m.text}</pre></details></article></li>`;
}

/** The Test inbox (administrators): the test twin's e-mails and text messages, newest first. */
export function testInboxPage(f: StaffPageFrame, v: TestInboxView): string {
  const w = testInboxWords[f.lang];
  const list = !v.twin
    ? html`<p>${w.noTwin} <a href="/staff/users">${w.noTwinLink}</a>.</p>`
    : v.messages.length === 0
      ? html`<p>${w.none}</p>`
      : html`<ol class="plain messages" aria-label="${w.caption}">${v.messages.map((m, i) => message(f, m, i))}</ol>${
          v.more ? html`<p>${w.more(v.shown)}</p>` : ''
        }`;
  return staffLayout({
    ...framed(f),
    title: w.title,
    area: 'integrations',
    body: html`<h1>${w.title}</h1>
<p>${w.intro}</p>
<form method="get" action="/staff/integrations/test-inbox" class="filters" role="search">
<div class="field"><label for="to">${w.recipient}</label><input type="text" id="to" name="to" value="${v.to}" maxlength="320" autocomplete="off" aria-describedby="to-hint"><p class="hint" id="to-hint">${w.recipientHint}</p></div>
<div class="row"><button type="submit">${w.filter}</button>${v.to ? html` <a href="/staff/integrations/test-inbox">${w.showAll}</a>` : ''}</div></form>
${list}`,
  });
}
