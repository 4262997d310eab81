import { type Html, html, trusted } from './html';

/**
 * What every page shares, whoever it is for: the document skeleton and the base look (system font,
 * large targets, visible focus, high-contrast colours). The contact's pages and the staff pages add their
 * own rules on top.
 */
const baseCss = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1a1a1a;background:#f5f6f8;line-height:1.5;font-size:1.0625rem}
h1{font-size:1.4rem;margin:.5rem 0}
h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
a{color:#0b57d0}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
input[type=text],input[type=url],input[type=email],input[type=password],input[type=search],input[type=tel],input[type=date],input[type=number],select,textarea{width:100%;padding:.6rem;border:2px solid #5f6368;border-radius:6px;font:inherit;color:inherit;background:#fff}
textarea{min-height:6rem}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.6rem 1.1rem;border-radius:6px;border:2px solid #0b57d0;background:#fff;color:#0b57d0;cursor:pointer;min-height:2.75rem;text-decoration:none}
button.primary,.button.primary{background:#0b57d0;color:#fff}
button.danger{border-color:#b3261e;color:#b3261e}
.error{color:#b3261e;font-weight:600;margin:.25rem 0 0}
[aria-invalid=true]{border-color:#b3261e!important}
.summary{border:2px solid #b3261e;border-radius:6px;padding:.75rem 1rem;margin:1rem 0}
.summary h2{margin-top:0}
.notice{border:2px solid #146c2e;border-radius:6px;padding:.75rem 1rem;background:#eef7f0}
.tag{font-weight:400;color:#44474f;font-size:.9rem}
.skip{position:absolute;left:-999px}.skip:focus{position:static}
`;

export interface DocumentOptions {
  lang: string;
  title: string;
  css: string;
  body: Html;
  /** The page's own script (markup the code wrote), run with the response's nonce. */
  script?: { nonce: string; code: Html };
  /** Reload the page after `seconds` (at `url`: the page's address without a fragment, which would not reload). */
  refresh?: { seconds: number; url: string };
}

export function htmlDocument(o: DocumentOptions): string {
  return html`<!doctype html>
<html lang="${o.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${o.refresh ? html`\n<meta http-equiv="refresh" content="${o.refresh.seconds}; url=${o.refresh.url}">` : ''}
<title>${o.title}</title>
<style>${trusted(baseCss + o.css)}</style>
</head>
<body>
${o.body}${o.script ? html`\n<script nonce="${o.script.nonce}">${o.script.code}</script>` : ''}
</body>
</html>
`.toString();
}
