import type { Browser } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let browser: Browser;
beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await h.close();
});

it('when /docs is opened in a browser, then the API reference renders from this service alone, with the webhook events', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  const outside: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith(h.baseUrl) && !r.url().startsWith('data:')) outside.push(r.url());
  });
  await page.goto(`${h.baseUrl}/docs`);
  await page.getByRole('heading', { name: /ActionDesk API/ }).waitFor();
  // The OpenAPI 3.1 webhooks section: one entry per event type.
  await page.getByText('sessionrequest.completed', { exact: true }).first().waitFor();
  expect(await page.getByText('file.deleted', { exact: true }).count()).toBeGreaterThan(0);
  // Swagger UI renders a long list (150 tags and operations or more) virtually, only what is in view:
  // scroll down until the operation shows (a bounded walk down the page, by less than the window's
  // height, so that nothing passes unseen between two steps).
  const deliveries = page.getByText('/api/v1/webhooks/{webhookId}/deliveries');
  for (let i = 0; i < 500 && (await deliveries.count()) === 0; i++) {
    await page.mouse.wheel(0, 700);
    await page.evaluate(
      'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
    );
  }
  expect(await deliveries.count()).toBeGreaterThan(0);
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: 'docs/screenshots/api-reference.png' });
  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
  await page.close();
});
