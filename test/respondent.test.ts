import { sql } from 'drizzle-orm';
import request from 'supertest';
import { SessionDetail, SessionList } from '../src/modules/sessions/sessions.schemas';
import { queryRows } from '../src/platform/db/database';
import { asBuffer, pdfText } from './support/binary';
import { createContact, createOrg, createTemplate, type TestOrg, templateBody } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let other: TestOrg;
let template: string;
let contact: string;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h, 'Kantoor Peeters');
  other = await createOrg(h);
  template = await createTemplate(h, org, { name: 'Intake' });
  contact = await createContact(h, org, {
    Voornaam: 'Marie',
    Achternaam: 'Claes',
    Email: 'marie@example.test',
  });
});
afterAll(() => h.close());

async function newAction(body: Record<string, unknown> = {}) {
  const res = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'qlist', customerId: contact, questionListIds: [template], ...body });
  return res.body as { _id: string; code: string };
}

/** A browser-like client: keeps the CSRF cookie and reads the token from the page. */
async function contactFor(code: string) {
  const agent = request.agent(h.server);
  const first = await agent.get(`/action/${code}`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
  const post = (fields: [string, string][], path = '') =>
    agent
      .post(`/action/${code}${path}?lang=nl`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  return {
    agent,
    first,
    csrf,
    post,
    step: (step: number, nav: string, answers: [string, string][]) =>
      post([['step', String(step)], ['nav', nav], ...answers]),
  };
}

describe('respondent pages', () => {
  it('when the link is opened, then the first section is shown with labelled fields and a CSRF cookie', async () => {
    const { code } = await newAction();
    const { first } = await contactFor(code);
    expect(first.status).toBe(200);
    expect(first.headers['set-cookie']?.[0]).toMatch(
      /^adk_csrf=[0-9a-f]{64}\.[0-9a-f]{64}; Path=\/action; HttpOnly; SameSite=Strict$/,
    );
    expect(first.headers['content-security-policy']).toMatch(/script-src 'nonce-/);
    expect(first.text).toContain('<html lang="nl">');
    expect(first.text).toContain('Stap 1 van 3');
    expect(first.text).toMatch(/<label for="q-name">Naam <span class="tag">\(verplicht\)<\/span><\/label>/);
    expect(first.text).toContain('<legend>Gehuwd? <span class="tag">(verplicht)</span></legend>');
    // The partner question depends on an answer on the same page: hidden until "yes".
    expect(first.text).toMatch(/data-q="partner" data-cond-q="married" data-cond-v="yes" hidden/);
    expect(first.text).toContain(`href="/action/${code}?step=0&lang=fr"`);
  });

  it('when a required answer is missing or an answer has the wrong type, then the page comes back with the problems and nothing is saved', async () => {
    const { code, _id } = await newAction();
    const c = await contactFor(code);
    const missing = await c.step(0, 'next', [['q.name', '']]);
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('Controleer deze antwoorden');
    expect(missing.text).toMatch(/id="e-name">Dit antwoord is verplicht\./);
    expect(missing.text).toMatch(/id="e-married">Dit antwoord is verplicht\./);

    await c.step(0, 'next', [
      ['q.name', 'Marie'],
      ['q.married', 'no'],
    ]);
    const cases: [string, string, RegExp][] = [
      ['q.amount', 'twelve', /Vul een getal in\./],
      ['q.income', 'medium', /Kies een van de mogelijkheden\./],
    ];
    for (const [name, value, message] of cases) {
      const res = await c.step(1, 'next', [[name, value]]);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(message);
    }
    // The value sent is shown again beside its problem.
    expect((await c.step(1, 'next', [['q.amount', 'twelve']])).text).toContain(
      'value="twelve" aria-describedby="e-amount" aria-invalid="true"',
    );
    const detail = await h.api().get(`/api/v1/sessionrequests/${_id}`).set('x-api-key', org.adminKey);
    expect(detail.body.status).toBe('opened');
  });

  it('when the contact answers, leaves and comes back, then the answers are still there, and submitting creates the session, completes the action and makes the report', async () => {
    const { code, _id } = await newAction();
    const c = await contactFor(code);
    const s0 = await c.step(0, 'next', [
      ['q.name', 'Marie Claes'],
      ['q.married', 'yes'],
      ['q.partner', 'Jan Peeters'],
    ]);
    expect(s0.status).toBe(303);
    expect(s0.headers.location).toBe(`/action/${code}?lang=nl&step=1`);
    const s1 = await c.step(1, 'save', [
      ['q.income', 'high'],
      ['q.amount', '1 250,5'],
    ]);
    expect(s1.headers.location).toBe(`/action/${code}?lang=nl&step=1&saved=1`);

    expect((await c.agent.get(s1.headers.location!)).text).toContain('Uw antwoorden zijn bewaard');

    // Later, in another browser.
    const later = await contactFor(code);
    const back = await later.agent.get(`/action/${code}?step=1`);
    expect(back.text).toMatch(/value="high" checked/);
    expect(back.text).toContain('value="1250.5"');
    await later.step(1, 'next', [
      ['q.income', 'high'],
      ['q.amount', '1250.5'],
    ]);
    const s2 = await later.step(2, 'next', [['q.remarks', 'Graag na 17 uur bellen.']]);
    expect(s2.headers.location).toBe(`/action/${code}?lang=nl&step=review`);
    const review = await later.agent.get(`/action/${code}?step=review`);
    expect(review.text).toContain('<dt>Naam partner</dt><dd>Jan Peeters</dd>');
    expect(review.text).toContain('<dt>Inkomen</dt><dd>Hoog</dd>');

    const submitted = await later.post([], '/submit');
    await h.jobs.drain(); // the report, and with it the completion
    expect(submitted.status).toBe(303);
    const done = await later.agent.get(`/action/${code}`);
    expect(done.text).toContain('Bedankt!');

    const list = await h.api().get(`/api/v1/sessions?sessionRequestId=${_id}`).set('x-api-key', org.adminKey);
    const sessions = SessionList.parse(list.body);
    expect(sessions.total).toBe(1);
    const session = SessionDetail.parse(
      (await h.api().get(`/api/v1/sessions/${sessions.sessions[0]!._id}`).set('x-api-key', org.adminKey))
        .body,
    );
    expect(session).toMatchObject({
      sessionRequest: _id,
      customer: contact,
      language: 'nl',
      version: 1,
      history: [],
    });
    expect(session.responses.map((r) => [r.questionId, r.questionTitle, r.response])).toEqual([
      ['name', 'Naam', 'Marie Claes'],
      ['married', 'Gehuwd?', 'Ja'],
      ['partner', 'Naam partner', 'Jan Peeters'],
      ['income', 'Inkomen', 'Hoog'],
      ['amount', 'Bedrag', '1250.5'],
      ['remarks', 'Opmerkingen', 'Graag na 17 uur bellen.'],
    ]);
    expect(session.responses[1]?.value).toBe(true);
    const action = await h.api().get(`/api/v1/sessionrequests/${_id}`).set('x-api-key', org.adminKey);
    expect(action.body.status).toBe('completed');

    expect(session.documents).toHaveLength(1);
    const pdf = await asBuffer(h.api().get(session.documents[0]!.fileUrl).set('x-api-key', org.adminKey));
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.body as Buffer);
    for (const expected of [
      'Kantoor Peeters',
      'Marie Claes',
      'Intake',
      'Naam partner',
      'Jan Peeters',
      'Hoog',
      'Graag na 17 uur bellen.',
      'Pagina 1 / 1',
    ])
      expect(text).toContain(expected);
  });

  it('when each type of question gets an answer it cannot take, then each is refused with its own message', async () => {
    const t = (en: string) => ({ nl: en, fr: en, en });
    const allTypes = await createTemplate(h, org, {
      sections: [
        {
          id: 'all',
          title: t('All'),
          questions: [
            { id: 'mail', type: 'email', title: t('Mail') },
            { id: 'tel', type: 'phone', title: t('Phone') },
            { id: 'day', type: 'date', title: t('Day') },
            { id: 'count', type: 'number', title: t('Count') },
            { id: 'ok', type: 'yes_no', title: t('OK') },
            {
              id: 'one',
              type: 'single_choice',
              title: t('One'),
              options: [
                { value: 'a', label: t('A') },
                { value: 'b', label: t('B') },
              ],
            },
            {
              id: 'many',
              type: 'multiple_choice',
              title: t('Many'),
              options: [
                { value: 'a', label: t('A') },
                { value: 'b', label: t('B') },
              ],
            },
            { id: 'short', type: 'short_text', title: t('Short') },
            { id: 'long', type: 'long_text', title: t('Long') },
          ],
        },
      ],
    });
    const res = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'qlist', customerId: contact, questionListIds: [allTypes], language: 'en' });
    const c = await contactFor(res.body.code);
    const bad = await c.post([
      ['step', '0'],
      ['nav', 'next'],
      ['q.mail', 'not-an-address'],
      ['q.tel', 'call me'],
      ['q.day', '2026-02-30'],
      ['q.count', '12abc'],
      ['q.ok', 'maybe'],
      ['q.one', 'c'],
      ['q.many', 'a'],
      ['q.many', 'z'],
      ['q.short', 'x'.repeat(501)],
      ['q.long', 'y'.repeat(10_001)],
    ]);
    expect(bad.status).toBe(400);
    const problems = Object.fromEntries(
      [...bad.text.matchAll(/id="e-([a-z]+)">([^<]+)</g)].map((m) => [m[1], m[2]]),
    );
    expect(problems).toEqual({
      mail: 'Vul een geldig e-mailadres in.',
      tel: 'Vul een geldig telefoonnummer in.',
      day: 'Vul een geldige datum in.',
      count: 'Vul een getal in.',
      ok: 'Kies een van de mogelijkheden.',
      one: 'Kies een van de mogelijkheden.',
      many: 'Kies een van de mogelijkheden.',
      short: 'Dit antwoord is te lang.',
      long: 'Dit antwoord is te lang.',
    });
    const good = await c.post([
      ['step', '0'],
      ['nav', 'next'],
      ['q.mail', 'a@b.be'],
      ['q.tel', '+32 470 12 34 56'],
      ['q.day', '2026-02-28'],
      ['q.count', '12'],
      ['q.ok', 'yes'],
      ['q.one', 'a'],
      ['q.many', 'a'],
      ['q.many', 'b'],
    ]);
    expect(good.status).toBe(303);
  });

  it('when a condition no longer holds, then its answer is dropped', async () => {
    const { code, _id } = await newAction();
    const c = await contactFor(code);
    await c.step(0, 'next', [
      ['q.name', 'A'],
      ['q.married', 'yes'],
      ['q.partner', 'B'],
    ]);
    await c.step(0, 'next', [
      ['q.name', 'A'],
      ['q.married', 'no'],
      ['q.partner', 'B'],
    ]);
    await c.step(1, 'next', []);
    await c.step(2, 'next', []);
    await c.post([], '/submit');
    await h.jobs.drain(); // the report, and with it the completion
    const list = await h.api().get(`/api/v1/sessions?sessionRequestId=${_id}`).set('x-api-key', org.adminKey);
    expect(list.body.sessions[0].responses.map((r: { questionId: string }) => r.questionId)).toEqual([
      'name',
      'married',
    ]);
  });

  it('when the form comes without the CSRF token, then 403 and nothing is saved', async () => {
    const { code } = await newAction();
    const c = await contactFor(code);
    const res = await c.agent
      .post(`/action/${code}`)
      .type('form')
      .send('step=0&nav=next&q.name=X&q.married=no');
    expect(res.status).toBe(403);
    const page = await c.agent.get(`/action/${code}`);
    expect(page.text).not.toContain('value="X"');
  });

  it('when the action is reopened, then the contact sees the previous answers, corrects them, and the session keeps the earlier version', async () => {
    const { code, _id } = await newAction();
    const c = await contactFor(code);
    await c.step(0, 'next', [
      ['q.name', 'Marie'],
      ['q.married', 'no'],
    ]);
    await c.step(1, 'next', [['q.income', 'low']]);
    await c.step(2, 'next', []);
    await c.post([], '/submit');
    await h.jobs.drain(); // the report, and with it the completion
    await h.api().post(`/api/v1/sessionrequests/${_id}/reopen`).set('x-api-key', org.adminKey);
    const again = await contactFor(code);
    expect(again.first.text).toContain('value="Marie"');
    await again.step(0, 'next', [
      ['q.name', 'Marie Claes'],
      ['q.married', 'no'],
    ]);
    await again.post([], '/submit');
    await h.jobs.drain(); // the report, and with it the completion
    const list = await h.api().get(`/api/v1/sessions?sessionRequestId=${_id}`).set('x-api-key', org.adminKey);
    const session = (
      await h.api().get(`/api/v1/sessions/${list.body.sessions[0]._id}`).set('x-api-key', org.adminKey)
    ).body;
    expect(session.version).toBe(2);
    expect(session.responses[0].response).toBe('Marie Claes');
    expect(session.history).toEqual([expect.objectContaining({ version: 1 })]);
    expect(session.history[0].responses[0].response).toBe('Marie');
    const action = await h.api().get(`/api/v1/sessionrequests/${_id}`).set('x-api-key', org.adminKey);
    expect(action.body.history.map((e: { to: string }) => e.to)).toEqual([
      'created',
      'opened',
      'completed',
      'reopened',
      'completed',
    ]);
  });

  it('when another organisation asks for the session, then 404', async () => {
    const { code, _id } = await newAction();
    const c = await contactFor(code);
    await c.step(0, 'next', [
      ['q.name', 'X'],
      ['q.married', 'no'],
    ]);
    await c.post([], '/submit');
    await h.jobs.drain(); // the report, and with it the completion
    const list = await h.api().get(`/api/v1/sessions?sessionRequestId=${_id}`).set('x-api-key', org.adminKey);
    const id = list.body.sessions[0]._id;
    const res = await h.api().get(`/api/v1/sessions/${id}`).set('x-api-key', other.adminKey);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, status: 404, error: 'Session not found' });
    const theirs = await h
      .api()
      .get(`/api/v1/sessions?sessionRequestId=${_id}`)
      .set('x-api-key', other.adminKey);
    expect(theirs.body).toEqual({
      sessions: [],
      total: 0,
      totalIsEstimate: false,
      hasMore: false,
      nextCursor: null,
    });
  });

  it('when one address tries too many unknown codes, then it gets 429 with Retry-After', async () => {
    const agent = request.agent(h.server);
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await agent.get(`/action/${'z'.repeat(19)}${i % 10}`)).status;
    expect(last).toBe(429);
    const res = await agent.get('/action/zzzzzzzzzzzzzzzzzzzz');
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    h.clock.advance(10 * 60_000);
    expect((await agent.get('/action/zzzzzzzzzzzzzzzzzzzz')).status).toBe(404);
  });

  it('when a colleague behind the same address mistypes codes, then valid links keep working and only unknown codes get 429', async () => {
    h.clock.advance(10 * 60_000); // a fresh window for this address
    const { code } = await newAction();
    const office = request.agent(h.server);
    for (let i = 0; i < 30; i++)
      expect((await office.get(`/action/${'z'.repeat(19)}${i % 10}`)).status).toBe(404);
    expect((await office.get(`/action/${'y'.repeat(20)}`)).status).toBe(429);
    const valid = await office.get(`/action/${code}`);
    expect(valid.status).toBe(200);
    expect(valid.text).toContain('Stap 1 van 3');
    const c = await contactFor(code);
    expect(
      (
        await c.step(0, 'next', [
          ['q.name', 'Marie'],
          ['q.married', 'no'],
        ])
      ).status,
    ).toBe(303);
    expect((await office.get(`/action/${'x'.repeat(20)}`)).status).toBe(429);
  });

  it('when links are opened, then the request log lines show /action/[redacted], never the code', async () => {
    const { code } = await newAction();
    const c = await contactFor(code);
    await c.step(0, 'next', [
      ['q.name', 'Marie'],
      ['q.married', 'no'],
    ]);
    await c.agent.get(`/action/${code.toUpperCase()}?step=1`);
    // The router matches paths in any case, and codes in their written forms (groups, o for 0, l for 1).
    const grouped = code.toUpperCase().replace(/(.{4})(?=.)/g, '$1-');
    expect((await c.agent.get(`/ACTION/${grouped}`)).status).toBe(200);
    expect((await c.agent.get(`/Action/${code}`)).status).toBe(200);
    const lines = h.logs.filter((l) => JSON.stringify(l).includes('/action/'));
    expect(lines.map((l) => (l.req as { url: string }).url)).toEqual(
      expect.arrayContaining([
        '/action/[redacted]',
        '/action/[redacted]?lang=nl',
        '/action/[redacted]?step=1',
      ]),
    );
    for (const line of h.logs) {
      expect(JSON.stringify(line)).not.toContain(code);
      expect(JSON.stringify(line)).not.toContain(code.toUpperCase());
      expect(JSON.stringify(line)).not.toContain(grouped);
    }
  });

  it('when the CSRF cookie is malformed, then a form post is refused with 403 and a page gets a fresh token, never 500', async () => {
    const { code } = await newAction();
    // Broken encodings, and a well-formed token whose HMAC was not made with our key.
    for (const bad of ['%zz', '%', 'a%E0%A4%A', '%C0%AF'.repeat(10), `${'0'.repeat(64)}.${'1'.repeat(64)}`]) {
      const post = await request(h.server)
        .post(`/action/${code}`)
        .set('Cookie', `adk_csrf=${bad}`)
        .type('form')
        .send(`_csrf=${encodeURIComponent(bad)}&step=0&nav=next&q.name=X&q.married=no`);
      expect(post.status).toBe(403);
      expect(post.text).toContain('This form has expired');
      const page = await request(h.server).get(`/action/${code}`).set('Cookie', `other=1; adk_csrf=${bad}`);
      expect(page.status).toBe(200);
      expect(page.headers['set-cookie']?.[0]).toMatch(/^adk_csrf=[0-9a-f]{64}\.[0-9a-f]{64};/);
    }
    const page = await request(h.server).get(`/action/${code}`);
    expect(page.text).not.toContain('value="X"');
  });

  it('when a form post cannot be read (a NUL character, a wrong charset, too many fields), then the contact gets an HTML page, never JSON, and nothing is saved', async () => {
    const { code } = await newAction();
    const c = await contactFor(code);
    const cases: [string, () => Promise<request.Response>, number, RegExp][] = [
      [
        'a NUL',
        () =>
          c.step(0, 'next', [
            ['q.name', 'Zorro\u0000Z'],
            ['q.married', 'no'],
          ]),
        400,
        /NUL character/,
      ],
      [
        'a charset nobody reads',
        () =>
          c.agent
            .post(`/action/${code}?lang=nl`)
            .set('content-type', 'application/x-www-form-urlencoded; charset=klingon')
            .send(`_csrf=${c.csrf}&step=0&nav=next&q.name=Qwertz&q.married=no`),
        415,
        /form could not be read/,
      ],
      [
        'too many fields',
        () =>
          c.agent
            .post(`/action/${code}?lang=nl`)
            .type('form')
            .send(Array.from({ length: 1_200 }, (_, i) => `f${i}=1`).join('&')),
        413,
        /Too much was sent/,
      ],
    ];
    for (const [what, send, status, text] of cases) {
      const res = await send();
      expect({ what, status: res.status, type: res.headers['content-type'] }).toEqual({
        what,
        status,
        type: 'text/html; charset=utf-8',
      });
      expect(res.text).toMatch(text);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    }
    const page = await c.agent.get(`/action/${code}`);
    expect(page.text).not.toContain('Qwertz');
    expect(page.text).not.toContain('Zorro');
  });

  it('when a single-choice question gets two values, then it is refused on its own and nothing is saved', async () => {
    const { code, _id } = await newAction();
    const c = await contactFor(code);
    await c.step(0, 'next', [
      ['q.name', 'Marie'],
      ['q.married', 'no'],
    ]);
    const twice = await c.step(1, 'next', [
      ['q.income', 'low'],
      ['q.income', 'high'],
      ['q.amount', '12'],
    ]);
    expect(twice.status).toBe(400);
    expect(twice.text).toMatch(/id="e-income">Kies maar één mogelijkheid\./);
    expect(twice.text).not.toMatch(/id="e-amount"/);
    const married = await c.step(0, 'next', [
      ['q.name', 'Marie'],
      ['q.married', 'yes'],
      ['q.married', 'no'],
    ]);
    expect(married.status).toBe(400);
    expect(married.text).toMatch(/id="e-married">Kies maar één mogelijkheid\./);
    const [row] = await h.database.tenantTransaction(
      { organisationId: org.organisationId, userId: null, apiKeyId: null, authVersion: 0, at: h.clock.now() },
      (tx) =>
        queryRows<{ draft: Record<string, Record<string, unknown>> }>(
          tx,
          sql`SELECT draft FROM session_requests WHERE id = ${_id}`,
        ),
    );
    expect(row?.draft[template]).toEqual({ name: 'Marie', married: false });
  });

  it('when question ids and option values are constructor, toString, valueOf and hasOwnProperty, then the pages, the review and the session hold exactly what was answered', async () => {
    const t = (en: string) => ({ nl: en, fr: en, en });
    const hostile = await createTemplate(h, org, {
      name: 'Hostile',
      sections: [
        {
          id: 'constructor',
          title: t('Page'),
          questions: [
            { id: 'constructor', type: 'short_text', title: t('C') },
            { id: 'toString', type: 'short_text', title: t('T') },
            {
              id: 'valueOf',
              type: 'single_choice',
              title: t('V'),
              options: [
                { value: 'toString', label: t('Option toString') },
                { value: 'constructor', label: t('Option constructor') },
              ],
            },
            {
              id: 'hasOwnProperty',
              type: 'multiple_choice',
              title: t('H'),
              options: [
                { value: 'valueOf', label: t('Option valueOf') },
                { value: 'hasOwnProperty', label: t('Option hasOwnProperty') },
              ],
              condition: { questionId: 'valueOf', equals: 'constructor' },
            },
          ],
        },
      ],
    });
    const res = await h
      .api()
      .post('/api/v1/sessionrequests')
      .set('x-api-key', org.adminKey)
      .send({ type: 'qlist', customerId: contact, questionListIds: [hostile], language: 'en' });
    const c = await contactFor(res.body.code);
    expect(c.first.status).toBe(200);
    // Nothing answered yet: every field is empty, nothing inherited shows up as a value.
    expect(c.first.text).toContain('id="q-constructor" name="q.constructor" value=""');
    expect(c.first.text).toContain('id="q-toString" name="q.toString" value=""');
    expect(c.first.text).not.toContain('[native code]');
    expect(c.first.text).not.toContain(' checked');
    // The optional questions left empty are no problem.
    expect((await c.step(0, 'save', [])).status).toBe(303);
    const saved = await c.step(0, 'next', [
      ['q.toString', 'text for toString'],
      ['q.valueOf', 'constructor'],
      ['q.hasOwnProperty', 'valueOf'],
      ['q.hasOwnProperty', 'hasOwnProperty'],
    ]);
    expect(saved.status).toBe(303);
    const review = await c.agent.get(`/action/${res.body.code}?step=review&lang=en`);
    expect(review.text).toContain('<dt>C</dt><dd>(no answer)</dd>');
    expect(review.text).toContain('<dt>T</dt><dd>text for toString</dd>');
    expect(review.text).toContain('<dt>V</dt><dd>Option constructor</dd>');
    expect(review.text).toContain('<dt>H</dt><dd>Option valueOf, Option hasOwnProperty</dd>');
    expect((await c.post([], '/submit')).status).toBe(303);
    await h.jobs.drain(); // the report, and with it the completion
    const list = await h
      .api()
      .get(`/api/v1/sessions?sessionRequestId=${res.body._id}`)
      .set('x-api-key', org.adminKey);
    expect(
      list.body.sessions[0].responses.map((r: { questionId: string; value: unknown }) => [
        r.questionId,
        r.value,
      ]),
    ).toEqual([
      ['toString', 'text for toString'],
      ['valueOf', 'constructor'],
      ['hasOwnProperty', ['valueOf', 'hasOwnProperty']],
    ]);
  });

  it('when a template names a question or option __proto__ or with a dot, then 400 names the field', async () => {
    const t = (en: string) => ({ nl: en, fr: en, en });
    for (const [question, field] of [
      [{ id: '__proto__', type: 'short_text', title: t('P') }, 'sections[0].questions[0].id'],
      [{ id: 'a.b', type: 'short_text', title: t('P') }, 'sections[0].questions[0].id'],
      [
        {
          id: 'ok',
          type: 'single_choice',
          title: t('P'),
          options: [
            { value: '__proto__', label: t('A') },
            { value: 'b', label: t('B') },
          ],
        },
        'sections[0].questions[0].options[0].value',
      ],
    ] as const) {
      const res = await h
        .api()
        .post('/api/v1/questionlists')
        .set('x-api-key', org.adminKey)
        .send(templateBody({ sections: [{ id: 's', title: t('S'), questions: [question] }] }));
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
  });

  it('when the page’s query is repeated or oversized, then an HTML page names it (400); a mail client’s own parameters are ignored', async () => {
    const { code } = await newAction();
    const repeated = await request(h.server).get(`/action/${code}?step=0&step=1`);
    expect(repeated.status).toBe(400);
    expect(repeated.headers['content-type']).toMatch(/^text\/html/);
    expect(repeated.text).toContain('step');
    expect((await request(h.server).get(`/action/${code}?lang=${'x'.repeat(50)}`)).status).toBe(400);
    const tracked = await request(h.server).get(`/action/${code}?utm_source=mail&utm_campaign=x`);
    expect(tracked.status).toBe(200);
  });
});
