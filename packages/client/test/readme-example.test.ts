// The README's example runs as written: the built package, imported by name, against the real service,
// receiving and verifying the webhook the service sends when the action goes out.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createOrg, createTemplate } from '../../../test/support/fixtures';
import { freePort, type Harness, startHarness } from '../../../test/support/harness';

const dir = path.resolve(__dirname, '..');
const example = path.join(dir, 'examples/quickstart.mjs');
let h: Harness;

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(dir, 'scripts/build.mjs')], { stdio: 'pipe' });
  h = await startHarness(
    { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' },
    { startWorker: true },
  );
  // The receiver checks signatures against the real time: deliveries are stamped with the service's clock.
  h.clock.set(new Date());
});
afterAll(() => h.close());

it('when the README example is run, then it receives the signed sessionrequest.sent and prints the action', async () => {
  const org = await createOrg(h);
  await createTemplate(h, org);
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    ACTIONDESK_URL: h.baseUrl,
    ACTIONDESK_API_KEY: org.adminKey,
    RECEIVER_URL: `http://127.0.0.1:${port}/hooks/actiondesk`,
    RECEIVER_PORT: String(port),
  };
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = execFile(process.execPath, [example], { env, timeout: 60_000 }, (err, out, errOut) =>
        resolve({
          code: err ? (typeof err.code === 'number' ? err.code : 1) : 0,
          stdout: out,
          stderr: errOut,
        }),
      );
      child.stdin?.end();
    },
  );
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toMatch(/^([0-9a-z]{20}) sent to marie@example\.com: http:\/\/.+\/action\/\1\n$/i);
});

it('when the README is read, then its example is the one this test runs', () => {
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  expect(readme).toContain(fs.readFileSync(example, 'utf8'));
});
