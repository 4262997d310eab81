import { Portfolio, PortfolioList } from '../src/modules/portfolios/portfolios.schemas';
import { createOrg, createUserWithKey, type TestOrg } from './support/fixtures';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  h = await startHarness();
  org = await createOrg(h);
  other = await createOrg(h);
});
afterAll(() => h.close());

describe('portfolios', () => {
  it('when an organisation starts, then it has one default portfolio', async () => {
    const res = await h.api().get('/api/v1/portfolios').set('x-api-key', org.adminKey);
    expect(res.status).toBe(200);
    expect(PortfolioList.parse(res.body)).toEqual({
      total: 1,
      totalIsEstimate: false,
      hasMore: false,
      nextCursor: null,
      portfolios: [
        expect.objectContaining({ _id: org.portfolioId, name: 'Default', isDefault: true, customerCount: 0 }),
      ],
    });
  });

  it('when a portfolio is created, then 201 and it is listed for this organisation only', async () => {
    const res = await h
      .api()
      .post('/api/v1/portfolios')
      .set('x-api-key', org.adminKey)
      .send({ name: 'Gent', description: 'Kantoor Gent' });
    expect(res.status).toBe(201);
    const p = Portfolio.parse(res.body);
    expect(p).toMatchObject({
      name: 'Gent',
      description: 'Kantoor Gent',
      isDefault: false,
      customerCount: 0,
    });
    const mine = (await h.api().get('/api/v1/portfolios').set('x-api-key', org.adminKey)).body;
    expect(mine.portfolios.map((x: { _id: string }) => x._id)).toContain(p._id);
    const theirs = (await h.api().get('/api/v1/portfolios').set('x-api-key', other.adminKey)).body;
    expect(theirs.portfolios.map((x: { _id: string }) => x._id)).not.toContain(p._id);
    // The same name in another organisation is fine.
    expect(
      (await h.api().post('/api/v1/portfolios').set('x-api-key', other.adminKey).send({ name: 'Gent' }))
        .status,
    ).toBe(201);
  });

  it('when the name exists already (any case), then 409', async () => {
    await h.api().post('/api/v1/portfolios').set('x-api-key', org.adminKey).send({ name: 'Brugge' });
    const res = await h
      .api()
      .post('/api/v1/portfolios')
      .set('x-api-key', org.adminKey)
      .send({ name: 'BRUGGE' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      success: false,
      status: 409,
      error: "A portfolio named 'BRUGGE' already exists",
    });
  });

  it('when the body is invalid, then 400 names the field', async () => {
    const res = await h
      .api()
      .post('/api/v1/portfolios')
      .set('x-api-key', org.adminKey)
      .send({ name: '  ', owner: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['name', 'owner']);
  });

  it('when the caller may only read, then 403 on create; without a key, 401', async () => {
    const reader = await createUserWithKey(h, org, ['read-only']);
    expect((await h.api().get('/api/v1/portfolios').set('x-api-key', reader.key)).status).toBe(200);
    const res = await h.api().post('/api/v1/portfolios').set('x-api-key', reader.key).send({ name: 'X' });
    expect(res.status).toBe(403);
    expect((await h.api().get('/api/v1/portfolios')).body).toMatchObject({ success: false, code: 401 });
  });

  it('when contacts are added, then customerCount follows', async () => {
    const p = (
      await h.api().post('/api/v1/portfolios').set('x-api-key', org.adminKey).send({ name: 'Teller' })
    ).body;
    for (const n of ['A', 'B', 'C']) {
      await h
        .api()
        .post('/api/v1/customers')
        .set('x-api-key', org.adminKey)
        .send({ portfolioId: p._id, data: { Voornaam: n } });
    }
    const list = (await h.api().get('/api/v1/portfolios').set('x-api-key', org.adminKey)).body;
    expect(list.portfolios.find((x: { _id: string }) => x._id === p._id).customerCount).toBe(3);
  });
});
