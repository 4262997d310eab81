import { longDateTime } from '../../i18n/dates';
import type { Language } from '../../i18n/languages';
import { type MessageKind, messageTexts } from '../../i18n/messages';
import { escapeHtml } from '../../platform/web/html';
import type { Purpose } from './sessionrequests.view';

export interface MessageInput {
  language: Language;
  purpose: Purpose;
  kind: MessageKind;
  organisation: string;
  adviser: string | null;
  firstName: string | null;
  message: string | null;
  url: string;
  expiresAt: Date | null;
  timeZone: string;
}

export interface ComposedMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

/** The invitation, reminder or reopening message in the action's language, as e-mail (text + HTML) and SMS. */
export function composeMessage(m: MessageInput): ComposedMessage {
  const w = messageTexts[m.language];
  const task = w.task[m.kind];
  const who = m.adviser ? `${m.adviser} (${m.organisation})` : m.organisation;
  const until = m.expiresAt ? w.until(longDateTime(m.expiresAt, m.language, m.timeZone)) : null;
  const signature = [m.adviser, m.organisation].filter(Boolean) as string[];
  const paragraphs = [
    w.greeting(m.firstName),
    w.lead[m.purpose](who, task),
    ...(m.message ? [m.message] : []),
  ];
  const text = [
    ...paragraphs,
    `${w.open}\n${m.url}`,
    ...(until ? [until] : []),
    `${w.regards}\n${signature.join('\n')}`,
  ].join('\n\n');
  const p = (s: string) => `<p>${escapeHtml(s).replace(/\n/g, '<br>')}</p>`;
  const html = [
    `<!doctype html><html lang="${m.language}"><body style="font-family:sans-serif;line-height:1.5">`,
    ...paragraphs.map(p),
    `<p><a href="${escapeHtml(m.url)}">${escapeHtml(m.url)}</a></p>`,
    ...(until ? [p(until)] : []),
    p(`${w.regards}\n${signature.join('\n')}`),
    '</body></html>',
  ].join('\n');
  return {
    subject: w.subject[m.purpose](m.organisation, task),
    text,
    html,
    sms: w.sms(m.organisation, task, m.url),
  };
}
