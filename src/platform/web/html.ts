/**
 * HTML that escapes by default. Every page is built with the `html` tag: each value put into the
 * template is escaped for text and attribute contexts (quoted attributes), unless it is itself `Html`
 * (made by the tag, or by `trusted` for markup the code wrote, never for input). Arrays are joined, and
 * `null`, `undefined` and `false` render as nothing, so conditionals and lists need no escaping thought:
 *
 *   html`<li><a href="/contacts/${id}">${name}</a>${admin && html` <span>admin</span>`}</li>`
 *
 * There is no way to put a plain string into a page unescaped except `trusted(...)`, which is easy to
 * find in review.
 */
export class Html {
  /** Use the `html` tag or `trusted`; the constructor is not for pages. */
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** Plain text as HTML: each line a paragraph, escaped (the HTML part of a plain-text e-mail). */
export function textParagraphs(text: string): string {
  return text
    .split('\n')
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i] as HtmlValue) + strings[i + 1];
  return new Html(out);
}

/** Markup the code itself wrote (a stylesheet, a script body): never text that came from outside. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** Joins fragments with a separator (escaped if it is a string). */
export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue = ''): Html {
  const sep = render(separator);
  return new Html(parts.map(render).join(sep));
}
