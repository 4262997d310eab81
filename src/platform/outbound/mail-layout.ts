import { readableOnWhite } from '../web/colour';
import { escapeHtml } from '../web/html';

// The look of every e-mail to a contact: one narrow column that mail clients render alike (a table,
// inline styles, no image needed: a logo is extra), the sender's name on top, one clear button in the
// sender's colour, and the same words as a plain-text part for clients that show no HTML.

export interface MailLayoutInput {
  language: string;
  /** Who the message is from, on top (the organisation). */
  from: string;
  /** Shown by most clients beside the subject, before the message is opened. */
  preview?: string;
  /** Paragraphs before the button (plain text; line breaks are kept). */
  paragraphs: string[];
  /** One short thing shown large after the paragraphs, such as a one-time code. */
  highlight?: string;
  /** The one thing to do, as a button (and its address in the text part). */
  button?: { label: string; url: string };
  /** Paragraphs after the button: an expiry date, a signature. */
  after?: string[];
  /** Small print at the bottom. */
  footer?: string;
  /** The sender's look; absent, the product's own. */
  brand?: MailBrand;
}

export interface MailBrand {
  /** The button's colour, `#rrggbb` (anything else is ignored); darkened where white text would not read. */
  colour?: string;
  /** The sender's logo (an absolute https or http address), shown above its name. */
  logoUrl?: string;
}

const PRODUCT_COLOUR = '#0b57d0';

const p = (s: string, style = 'margin:0 0 16px') =>
  `<p style="${style}">${escapeHtml(s).replace(/\n/g, '<br>')}</p>`;

/** The message as HTML and as plain text, saying the same. */
export function mailLayout(m: MailLayoutInput): { html: string; text: string } {
  const colour = readableOnWhite(m.brand?.colour) ?? PRODUCT_COLOUR;
  // The name is written beside it, so the image itself says nothing more (alt="").
  const logo = m.brand?.logoUrl
    ? `<img src="${escapeHtml(m.brand.logoUrl)}" alt="" height="40" style="display:block;height:40px;width:auto;max-width:240px;border:0;margin:0 0 10px">`
    : '';
  const button = m.button
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:6px;background:${colour}"><a href="${escapeHtml(m.button.url)}" style="display:inline-block;padding:12px 22px;color:#ffffff;font-weight:600;text-decoration:none;border-radius:6px">${escapeHtml(m.button.label)}</a></td></tr></table>`
    : '';
  const highlight =
    m.highlight === undefined
      ? ''
      : `<p style="margin:0 0 16px;padding:12px 10px 12px 16px;display:inline-block;background:#f5f6f8;border-radius:6px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:32px;font-weight:700;letter-spacing:.2em;line-height:1.2">${escapeHtml(m.highlight)}</p>`;
  const html = [
    `<!doctype html><html lang="${escapeHtml(m.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(m.from)}</title></head>`,
    '<body style="margin:0;padding:0;background:#f5f6f8">',
    m.preview ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(m.preview)}</div>` : '',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f6f8"><tr><td align="center" style="padding:24px 12px">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a">',
    `<tr><td style="padding:20px 28px;border-bottom:1px solid #d0d4da;font-weight:700;font-size:18px">${logo}${escapeHtml(m.from)}</td></tr>`,
    '<tr><td style="padding:24px 28px">',
    ...m.paragraphs.map((s) => p(s)),
    highlight,
    button,
    ...(m.after ?? []).map((s) => p(s)),
    '</td></tr>',
    m.footer
      ? `<tr><td style="padding:16px 28px;border-top:1px solid #d0d4da">${p(m.footer, 'margin:0;font-size:13px;color:#44474f')}</td></tr>`
      : '',
    '</table></td></tr></table></body></html>',
  ].join('\n');
  const text = [
    ...m.paragraphs,
    ...(m.highlight === undefined ? [] : [m.highlight]),
    ...(m.button ? [`${m.button.label}:\n${m.button.url}`] : []),
    ...(m.after ?? []),
    ...(m.footer ? [`--\n${m.footer}`] : []),
  ].join('\n\n');
  return { html, text };
}
