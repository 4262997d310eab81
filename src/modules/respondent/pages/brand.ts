import { type Html, html } from '../../../platform/web/html';

// The organisation's look on the contact's pages: its logo in the header, its colour on buttons and
// links. The colour comes darkened where white text would not read on it (organisationBrand), and is a
// checked `#rrggbb`, so it can go into the page's style as it is.

/** What a contact's page shows of the organisation beyond its name. */
export interface PageBrand {
  /** `#rrggbb`, readable on white; null: the product's blue. */
  colour: string | null;
  /** The logo's address on this site (the policy loads images from here only); null: none. */
  logoPath: string | null;
}

const HEX = /^#[0-9a-f]{6}$/;

/** The rules that put the organisation's colour on links, buttons and the focus ring. */
export function brandCss(brand: PageBrand | undefined): string {
  const c = brand?.colour;
  if (!c || !HEX.test(c)) return '';
  return `a{color:${c}}:focus-visible{outline-color:${c}}button,.button{border-color:${c};color:${c}}button.primary,.button.primary{background:${c};color:#fff}`;
}

/** The logo above the organisation's name (which names it: the image itself says nothing more). */
export function brandLogo(brand: PageBrand | undefined): Html {
  return brand?.logoPath ? html`<img class="logo" src="${brand.logoPath}" alt="" height="48">` : html``;
}
