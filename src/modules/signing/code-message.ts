import { codeMessageTexts } from '../../i18n/code-messages';
import type { Language } from '../../i18n/languages';
import { type MailBrand, mailLayout } from '../../platform/outbound/mail-layout';

export interface CodeMessageInput {
  language: Language;
  code: string;
  organisation: string;
  title: string;
  minutes: number;
  /** The organisation's look in the e-mail (its colour, its logo); absent: the product's. */
  look?: MailBrand;
}

/** The one-time code message, as e-mail (the mail layout, the code large; text and HTML) and SMS. */
export function composeCodeMessage(m: CodeMessageInput) {
  const w = codeMessageTexts[m.language];
  const lead = w.lead(m.title, m.organisation);
  const body = mailLayout({
    language: m.language,
    from: m.organisation,
    preview: lead,
    paragraphs: [lead],
    highlight: m.code,
    after: [w.valid(m.minutes), w.ignore],
    ...(m.look ? { brand: m.look } : {}),
  });
  return {
    subject: w.subject(m.code, m.organisation),
    ...body,
    sms: w.sms(m.code, m.title, m.organisation, m.minutes),
  };
}
