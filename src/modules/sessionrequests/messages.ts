import { longDateTime } from '../../i18n/dates';
import type { Language } from '../../i18n/languages';
import { type MessageKind, messageTexts } from '../../i18n/messages';
import { type MailBrand, mailLayout } from '../../platform/outbound/mail-layout';
import type { Purpose } from './sessionrequests.view';

export interface MessageInput {
  language: Language;
  purpose: Purpose;
  kind: MessageKind;
  organisation: string;
  adviser: string | null;
  firstName: string | null;
  /** What the action is about, by name: its document's title, or its questionnaires' names. */
  names: string[];
  message: string | null;
  url: string;
  expiresAt: Date | null;
  timeZone: string;
  /** The organisation's look in the e-mail (its colour, its logo); absent: the product's. */
  look?: MailBrand;
}

export interface ComposedMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

/**
 * The invitation, reminder or reopening message in the action's language, as e-mail (the mail layout:
 * HTML and the same as plain text) and SMS. The e-mail names what the action is about; the SMS stays short.
 */
export function composeMessage(m: MessageInput): ComposedMessage {
  const w = messageTexts[m.language];
  const what =
    m.names.length > 0 ? new Intl.ListFormat(m.language).format(m.names.map((n) => w.quote(n))) : null;
  const task = what ? w.named[m.kind](what) : w.task[m.kind];
  const who = m.adviser ? `${m.adviser} (${m.organisation})` : m.organisation;
  const until = m.expiresAt ? w.until(longDateTime(m.expiresAt, m.language, m.timeZone)) : null;
  const signature = [m.adviser, m.organisation].filter(Boolean) as string[];
  const lead = w.lead[m.purpose](who, task, what);
  const body = mailLayout({
    language: m.language,
    from: m.organisation,
    preview: lead,
    paragraphs: [w.greeting(m.firstName), lead, ...(m.message ? [m.message] : [])],
    button: { label: w.button[m.kind], url: m.url },
    after: [...(until ? [until] : []), `${w.regards}\n${signature.join('\n')}`],
    ...(m.look ? { brand: m.look } : {}),
  });
  return {
    subject: w.subject[m.purpose](m.organisation, task, what),
    ...body,
    sms: w.sms(m.organisation, w.task[m.kind], m.url),
  };
}
