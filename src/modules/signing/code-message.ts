import { codeMessageTexts } from '../../i18n/code-messages';
import type { Language } from '../../i18n/languages';
import { escapeHtml } from '../../platform/web/html';

export interface CodeMessageInput {
  language: Language;
  code: string;
  organisation: string;
  title: string;
  minutes: number;
}

/** The one-time code message, as e-mail (text and HTML) and SMS. */
export function composeCodeMessage(m: CodeMessageInput) {
  const w = codeMessageTexts[m.language];
  const text = [w.lead(m.title, m.organisation), m.code, w.valid(m.minutes), w.ignore].join('\n\n');
  const html = [
    `<!doctype html><html lang="${m.language}"><body style="font-family:sans-serif;line-height:1.5">`,
    `<p>${escapeHtml(w.lead(m.title, m.organisation))}</p>`,
    `<p style="font-size:1.75rem;font-weight:700;letter-spacing:.2em">${escapeHtml(m.code)}</p>`,
    `<p>${escapeHtml(w.valid(m.minutes))}</p>`,
    `<p>${escapeHtml(w.ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return {
    subject: w.subject(m.code, m.organisation),
    text,
    html,
    sms: w.sms(m.code, m.title, m.organisation, m.minutes),
  };
}
