import fs from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { STAFF_PASSWORD } from './staff';

/** Debian's Chromium (installed by .ci/run; `apt-get install chromium`), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (p): p is string => Boolean(p),
  );
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found)
    throw new Error(
      'No Chromium found: install Debian’s chromium (apt-get install chromium) or set CHROMIUM_PATH',
    );
  return found;
}

export function launchBrowser(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core (the accessibility engine) in the page and answers its serious and critical violations,
 * each as `id (impact): help — where`. The page's strict content security policy would block an
 * injected script tag, so axe is evaluated through the DevTools protocol.
 */
export async function seriousA11yViolations(page: import('playwright-core').Page): Promise<string[]> {
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const violations = (await page.evaluate(
    'axe.run(document, { resultTypes: ["violations"] }).then(r => r.violations)',
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The staff sign-in page the browser is on, filled and sent with the keyboard (the tests' password). */
export async function signInAsStaff(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await page.waitForLoadState('load');
}

/** A new browser context of the given size, signed in as a staff user through `next`'s sign-in. */
export async function signedInStaffPage(
  browser: Browser,
  url: string,
  email: string,
  viewport: { width: number; height: number },
  o: { clipboard?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  if (o.clipboard)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  await page.goto(url);
  await signInAsStaff(page, email);
  return page;
}
