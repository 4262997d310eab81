import request from 'supertest';
import { englishIn } from './support/english';
import { createOrg, type TestOrg, unknownId } from './support/fixtures';
import { freePort, type Harness, startHarness } from './support/harness';
import { type IdentityProvider, startIdentityProvider } from './support/identity-provider';
import { startSmtpServer } from './support/peers';
import { csrfIn, STAFF_PASSWORD, staffUser } from './support/staff';

// The pages before sign-in speak the browser's language (nobody is signed in to have chosen one):
// the sign-in page and its refusals, the password pages, and single sign-on's problem page.

const DUTCH = 'nl-BE,nl;q=0.9';
const FRENCH = 'fr-BE,fr;q=0.9,en;q=0.5';

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let idp: IdentityProvider;
let org: TestOrg;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // The provider sends the browser back to BASE_URL: the app listens where it says.
  const port = await freePort();
  h = await startHarness(
    {
      SSO_PRIVATE_NETWORKS: '127.0.0.0/8,::1/128',
      BASE_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'desk@example.test',
    },
    { port },
  );
  idp = await startIdentityProvider(h);
  org = await createOrg(h, 'Makelaardij Peeters');
  const provider = await h.api().post('/api/v1/admin/sso/providers').set('x-api-key', org.adminKey).send({
    type: 'oidc',
    name: 'Peeters ID',
    issuer: idp.issuer,
    clientId: 'makelaar.apps.example',
    clientSecret: 'makelaar-client-secret-0f9e8d7c',
    enabled: true,
  });
  expect(provider.status).toBe(201);
});
afterAll(async () => {
  await idp?.stop();
  await h.close();
  await smtp.close();
});

/** A browser (it keeps its cookies) that asks for `language`, or for none. */
function browser(language?: string) {
  const agent = request.agent(h.server);
  if (language) agent.set('Accept-Language', language);
  return agent;
}

/** The page is in Dutch through and through: its language named, and no English phrase left on it. */
function expectDutch(page: { text: string }) {
  expect(page.text).toContain('<html lang="nl">');
  expect(englishIn(page.text)).toEqual([]);
}

/** A staff user of the organisation without a password yet, by a Dutch name (nothing English in it). */
async function dutchStaffUser(name: string, email: string): Promise<string> {
  const created = await h
    .api()
    .post('/api/v1/admin/users')
    .set('x-api-key', org.adminKey)
    .send({ email, name, groups: ['adviser'] });
  expect(created.status).toBe(201);
  return created.body._id as string;
}

/** The password-link e-mail's link for the user, sent by the administrator: its path. */
async function passwordLink(userId: string): Promise<string> {
  const sent = await h
    .api()
    .post(`/api/v1/admin/users/${userId}/password-link`)
    .set('x-api-key', org.adminKey);
  expect(sent.status).toBe(202);
  const before = smtp.received.length;
  await h.jobs.drain();
  await smtp.waitFor(before + 1);
  const token = /\/password\/([A-Za-z0-9_-]{43})/.exec(smtp.received.at(-1)?.text ?? '')?.[1];
  expect(token).toBeDefined();
  return `/password/${token}`;
}

describe('the pages before sign-in, in the browser’s language', () => {
  it('when a Dutch browser opens the sign-in page, after a session ended or not, then it is in Dutch', async () => {
    const page = await browser(DUTCH).get('/signin');
    expect(page.status).toBe(200);
    expectDutch(page);
    expect(page.text).toContain('<h1>Aanmelden</h1>');
    expect(page.text).toContain('<label for="password">Wachtwoord</label>');
    expect(page.text).toContain('Wachtwoord vergeten?');
    expect(page.text).toContain('Doorgaan met eenmalige aanmelding');

    const ended = await browser(DUTCH).get('/signin?ended=timeout');
    expectDutch(ended);
    expect(ended.text).toContain('Uw sessie is afgelopen. Meld u opnieuw aan om verder te gaan.');
    const signedOut = await browser(DUTCH).get('/signin?signedOut=1');
    expectDutch(signedOut);
    expect(signedOut.text).toContain('U bent afgemeld.');
  });

  it('when a Dutch browser signs in with a wrong password, and then too often, then the refusals are in Dutch', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const agent = browser(DUTCH);
    const form = await agent.get('/signin');
    const attempt = (password: string) =>
      agent
        .post('/signin')
        .type('form')
        .send({ _csrf: csrfIn(form.text), email: user.email, password });

    const wrong = await attempt('not the password at all');
    expect(wrong.status).toBe(401);
    expectDutch(wrong);
    expect(wrong.text).toContain('Het e-mailadres of het wachtwoord klopt niet.');
    for (let i = 0; i < 4; i++) expect((await attempt(`wrong guess ${i}`)).status).toBe(401);
    const held = await attempt(STAFF_PASSWORD);
    expect(held.status).toBe(429);
    expectDutch(held);
    expect(held.text).toContain('Te veel mislukte aanmeldpogingen. Probeer het opnieuw over 1 seconde,');
  });

  it('when a Dutch browser forgets its password, then the form, its refusal and its answer are in Dutch', async () => {
    const agent = browser(DUTCH);
    const form = await agent.get('/password/forgot');
    expect(form.status).toBe(200);
    expectDutch(form);
    expect(form.text).toContain('<h1>Wachtwoord vergeten</h1>');
    expect(form.text).toContain('De link versturen');

    const ask = (email: string) =>
      agent
        .post('/password/forgot')
        .type('form')
        .send({ _csrf: csrfIn(form.text), email });
    const stale = await agent.post('/password/forgot').type('form').send({ email: 'jan@peeters.example' });
    expect(stale.status).toBe(403);
    expectDutch(stale);
    expect(stale.text).toContain('Dit formulier is verlopen.');
    const bad = await ask('not an address');
    expect(bad.status).toBe(400);
    expectDutch(bad);
    expect(bad.text).toContain('Geef een e-mailadres, zoals naam@voorbeeld.be.');
    const sent = await ask('niemand@peeters.example');
    expect(sent.status).toBe(200);
    expectDutch(sent);
    expect(sent.text).toContain('<h1>Kijk in uw mailbox</h1>');
    expect(sent.text).toContain('Als niemand@peeters.example bij een ActionDesk-account hoort');
  });

  it('when a Dutch browser opens a password link, then choosing the password, its refusals and a bad link are in Dutch', async () => {
    const userId = await dutchStaffUser('Griet Peeters', 'griet@peeters.example');
    const path = await passwordLink(userId);
    const agent = browser(DUTCH);
    const form = await agent.get(path);
    expect(form.status).toBe(200);
    expectDutch(form);
    expect(form.text).toContain('<h1>Kies uw wachtwoord</h1>');
    expect(form.text).toContain('Voor Griet Peeters (griet@peeters.example).');
    expect(form.text).toContain('Minstens 12 tekens.');

    const post = (password: string, confirm: string) =>
      agent
        .post(path)
        .type('form')
        .send({ _csrf: csrfIn(form.text), password, confirm });
    const mismatch = await post('een nieuwe lange zin', 'iets anders');
    expect(mismatch.status).toBe(400);
    expectDutch(mismatch);
    expect(mismatch.text).toContain('De twee wachtwoorden zijn niet hetzelfde.');
    const short = await post('kort', 'kort');
    expect(short.status).toBe(400);
    expectDutch(short);
    expect(short.text).toContain('Het wachtwoord moet minstens 12 tekens lang zijn.');

    const unknown = await agent.get(`/password/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expectDutch(unknown);
    expect(unknown.text).toContain('<h1>Deze link is niet geldig</h1>');
    expect(unknown.text).toContain('Een nieuwe link vragen');
  });

  it('when a Dutch browser signs in with single sign-on, then the buttons, a stale button and a refusal are in Dutch', async () => {
    const agent = browser(DUTCH);
    const own = await agent.get(`/signin/org/${org.organisationId}`);
    expect(own.status).toBe(200);
    expectDutch(own);
    expect(own.text).toContain('<h1>Aanmelden bij Makelaardij Peeters</h1>');
    expect(own.text).toContain('Aanmelden met Peeters ID');
    const href = /href="(\/signin\/sso\/start[^"]+)"/.exec(own.text)?.[1]?.replaceAll('&amp;', '&') ?? '';

    const stale = await agent.get(href.replace(/&_csrf=[^&]+/, ''));
    expect(stale.status).toBe(403);
    expectDutch(stale);
    expect(stale.text).toContain('Deze aanmeldknop is verlopen.');

    // Nobody at Peeters has this address: the provider's answer is refused, the page says for whom.
    idp.as({ sub: 'onbekend', email: 'onbekend@peeters.example', email_verified: true });
    const start = await agent.get(href);
    expect(start.status).toBe(303);
    const authorize = await fetch(start.headers.location as string, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location') as string);
    const refused = await agent.get(`${back.pathname}${back.search}`);
    expect(refused.status).toBe(403);
    expectDutch(refused);
    expect(refused.text).toContain('<h1>U bent niet aangemeld</h1>');
    expect(refused.text).toContain(
      'Er is geen ActionDesk-account voor onbekend@peeters.example in deze organisatie.',
    );

    // E-mail first: the buttons for an address with an account, and none for one without.
    await dutchStaffUser('Jan Peeters', 'jan@peeters.example');
    const first = await agent.get('/signin');
    const emailFirst = (email: string) =>
      agent
        .post('/signin/sso')
        .type('form')
        .send({ _csrf: csrfIn(first.text), email });
    const choice = await emailFirst('jan@peeters.example');
    expect(choice.status).toBe(200);
    expectDutch(choice);
    expect(choice.text).toContain('<h1>Aanmelden met uw werkaccount</h1>');
    expect(choice.text).toContain('Voor jan@peeters.example.');
    expect(choice.text).toContain('Aanmelden met Peeters ID');
    const none = await emailFirst('niemand@elders.example');
    expectDutch(none);
    expect(none.text).toContain('Voor dit adres is geen eenmalige aanmelding ingesteld.');

    const unknownOrg = await agent.get(`/signin/org/${unknownId}`);
    expect(unknownOrg.status).toBe(404);
    expectDutch(unknownOrg);
    expect(unknownOrg.text).toContain('Deze organisatie bestaat niet.');
  });

  it('when a French browser signs in with a wrong password, then the page is in French', async () => {
    const user = await staffUser(h, org, ['adviser']);
    const agent = browser(FRENCH);
    const form = await agent.get('/signin');
    expect(form.text).toContain('<html lang="fr">');
    expect(form.text).toContain('<h1>Se connecter</h1>');
    expect(form.text).toContain('Mot de passe oublié ?');
    const wrong = await agent
      .post('/signin')
      .type('form')
      .send({ _csrf: csrfIn(form.text), email: user.email, password: 'pas le bon mot de passe' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('<html lang="fr">');
    expect(wrong.text).toContain('L’adresse e-mail ou le mot de passe n’est pas correct.');
    expect(wrong.text).toContain('Continuer avec la connexion unique');
    for (const english of ['Sign in', 'Password', 'Forgot your password?', 'is not right'])
      expect(wrong.text).not.toContain(english);
  });

  it('when the browser names no language, then the pages stay English', async () => {
    const page = await browser().get('/signin?ended=timeout');
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).toContain('<h1>Sign in</h1>');
    expect(page.text).toContain('Your session has ended. Sign in again to go on.');
    // The check the Dutch pages pass knows these pages' English.
    expect(englishIn(page.text)).toEqual(
      expect.arrayContaining(['Your session has ended. Sign in again to go on.', 'Forgot your password?']),
    );
    const forgot = await browser().get('/password/forgot');
    expect(forgot.text).toContain('<html lang="en">');
    expect(forgot.text).toContain('<h1>Forgot your password</h1>');
    const unknown = await browser().get(`/password/${'x'.repeat(43)}`);
    expect(unknown.text).toContain('<h1>This link is not valid</h1>');
  });
});
