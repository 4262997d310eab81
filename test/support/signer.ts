import request from 'supertest';
import type { Harness } from './harness';
import type { startSmtpServer } from './peers';
import { until } from './until';

/** A signer's browser on their link: its cookies, the page's CSRF token, and the page's form posts. */
export function signerBrowser(h: Harness, code: string, lang = 'en') {
  const agent = request.agent(h.server);
  let csrf = '';
  const page = async () => {
    const res = await agent.get(`/action/${code}?lang=${lang}`);
    csrf = /name="_csrf" value="([^"]+)"/.exec(res.text)?.[1] ?? csrf;
    return res;
  };
  const post = (path: string, fields: [string, string][]) =>
    agent
      .post(`/action/${code}${path}?lang=${lang}`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  return { agent, page, post };
}

/**
 * Signs as the contact whose link is `code`: asks for a one-time code by e-mail, lets the job send it,
 * reads it from the real SMTP server, confirms it and signs with a typed name.
 */
export async function signByMail(
  h: Harness,
  smtp: Awaited<ReturnType<typeof startSmtpServer>>,
  code: string,
  name: string,
): Promise<void> {
  const signer = signerBrowser(h, code);
  await signer.page();
  const before = smtp.received.length;
  expect((await signer.post('/sign/code', [['channel', 'email']])).status).toBe(303);
  await h.jobs.drain();
  const text = () => smtp.received.slice(before).find((m) => /^\d{6} /.test(m.subject))?.text;
  await until(async () => text() !== undefined);
  const otp = /\b(\d{6})\b/.exec(text() ?? '')?.[1] ?? '';
  expect((await signer.post('/sign/verify', [['code', otp]])).status).toBe(303);
  await signer.page();
  const signed = await signer.post('/sign', [
    ['mark', 'typed'],
    ['typedName', name],
    ['consent', 'yes'],
  ]);
  expect(signed.status).toBe(303);
}
