import { sql } from 'drizzle-orm';
import { QuestionList, QuestionListSummary } from '../src/modules/questionlists/questionlists.schemas';
import { queryRows } from '../src/platform/db/database';
import { inTenant } from '../src/platform/db/tenant';
import { systemContext } from '../src/platform/kernel/context';
import { z } from '../src/platform/kernel/zod';
import {
  createOrg,
  createTemplate,
  createUserWithKey,
  type TestOrg,
  templateBody,
  unknownId,
} from './support/fixtures';
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

const post = (body: unknown, key = org.adminKey) =>
  h
    .api()
    .post('/api/v1/questionlists')
    .set('x-api-key', key)
    .send(body as object);

function versionsOf(id: string) {
  return inTenant(h.database, systemContext(org.organisationId), (tx) =>
    queryRows<{ version: number }>(
      tx,
      sql`SELECT version FROM question_list_versions WHERE question_list_id = ${id} ORDER BY version`,
    ),
  );
}

function fieldsOf(body: { details?: { field: string }[] }) {
  return (body.details ?? []).map((d) => d.field);
}

describe('POST /api/v1/questionlists', () => {
  it('when a consistent template is sent, then it is stored with its questions as version 1', async () => {
    const body = templateBody({ name: 'Intake Été 2026' });
    const res = await post(body);
    expect(res.status).toBe(201);
    const created = QuestionList.parse(res.body);
    expect(created).toMatchObject({
      name: 'Intake Été 2026',
      slug: 'intake-ete-2026',
      supportedLanguages: ['nl', 'fr', 'en'],
      hasReportSpec: true,
      active: true,
      version: 1,
    });
    expect(created.sections.map((s) => s.questions.map((q) => q.id))).toEqual([
      ['name', 'married', 'partner'],
      ['income', 'amount'],
      ['remarks'],
    ]);
    expect(created.sections[0]?.questions[2]?.condition).toEqual({ questionId: 'married', equals: true });
    expect(await versionsOf(created._id)).toEqual([{ version: 1 }]);
  });

  it.each([
    [
      'a repeated question id',
      (b: ReturnType<typeof templateBody>) => {
        b.sections[2]!.questions[0]!.id = 'name';
      },
      'sections[2].questions[0].id',
      /repeats the id of sections\[0\]\.questions\[0\]/,
    ],
    [
      'a choice question without options',
      (b: ReturnType<typeof templateBody>) => {
        delete (b.sections[1]!.questions[0] as { options?: unknown }).options;
      },
      'sections[1].questions[0].options',
      /needs at least 2 options/,
    ],
    [
      'a supported language missing from a title',
      (b: ReturnType<typeof templateBody>) => {
        delete (b.sections[0]!.questions[1]!.title as { fr?: string }).fr;
      },
      'sections[0].questions[1].title.fr',
      /fr is a supported language/,
    ],
    [
      'a condition on an unknown question',
      (b: ReturnType<typeof templateBody>) => {
        (b.sections[0]!.questions[2] as { condition?: unknown }).condition = {
          questionId: 'nope',
          equals: true,
        };
      },
      'sections[0].questions[2].condition.questionId',
      /unknown question 'nope'/,
    ],
    [
      'a condition on a later question',
      (b: ReturnType<typeof templateBody>) => {
        (b.sections[0]!.questions[0] as { condition?: unknown }).condition = {
          questionId: 'remarks',
          equals: 'x',
        };
      },
      'sections[0].questions[0].condition.questionId',
      /must come earlier/,
    ],
    [
      'a condition value the question cannot take',
      (b: ReturnType<typeof templateBody>) => {
        (b.sections[1]!.questions[1] as { condition?: unknown }).condition = {
          questionId: 'income',
          equals: 'medium',
        };
      },
      'sections[1].questions[1].condition.equals',
      /one of the option values of 'income'/,
    ],
    [
      'options on a text question',
      (b: ReturnType<typeof templateBody>) => {
        (b.sections[0]!.questions[0] as { options?: unknown }).options = [
          { value: 'a', label: { nl: 'a', fr: 'a', en: 'a' } },
        ];
      },
      'sections[0].questions[0].options',
      /takes no options/,
    ],
    [
      'an unknown question type',
      (b: ReturnType<typeof templateBody>) => {
        b.sections[0]!.questions[0]!.type = 'essay';
      },
      'sections[0].questions[0].type',
      /must be one of "short_text"/,
    ],
  ])(
    'when the template has %s, then 400 names the field and nothing is stored',
    async (_, spoil, field, message) => {
      const body = templateBody();
      spoil(body);
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, status: 400 });
      expect(fieldsOf(res.body)).toContain(field);
      expect(res.body.error).toMatch(message);
      const list = await h
        .api()
        .get('/api/v1/questionlists?includeInactive=true')
        .set('x-api-key', org.adminKey);
      expect(list.body.map((l: { name: string }) => l.name)).not.toContain(body.name);
    },
  );

  it('when the slug is taken in the organisation, then 409 names the existing template; another organisation may use it', async () => {
    const first = await post(templateBody({ slug: 'taken-slug' }));
    const second = await post(templateBody({ slug: 'taken-slug' }));
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      status: 409,
      details: [{ field: 'slug', in: 'body', value: first.body._id }],
    });
    expect((await post(templateBody({ slug: 'taken-slug' }), other.adminKey)).status).toBe(201);
  });

  it('when an adviser (no admin permission) creates one, then 403; without a key 401', async () => {
    const adviser = await createUserWithKey(h, org, ['adviser']);
    const res = await post(templateBody(), adviser.key);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 403 });
    const anonymous = await h.api().post('/api/v1/questionlists').send(templateBody());
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, code: 401 });
  });
});

describe('GET /api/v1/questionlists', () => {
  it('when listed, then only active templates of the organisation come back, as a bare array', async () => {
    const active = await createTemplate(h, org, { name: 'Aaa active' });
    const inactive = await createTemplate(h, org, { name: 'Aaa inactive', active: false });
    const foreign = await createTemplate(h, other, { name: 'Aaa foreign' });
    const reader = await createUserWithKey(h, org, ['read-only']);
    const res = await h.api().get('/api/v1/questionlists').set('x-api-key', reader.key);
    expect(res.status).toBe(200);
    const list = z.array(QuestionListSummary).parse(res.body);
    const ids = list.map((l) => l._id);
    expect(ids).toContain(active);
    expect(ids).not.toContain(inactive);
    expect(ids).not.toContain(foreign);
    expect(list.every((l) => l.active)).toBe(true);
    expect(Object.keys(res.body[0]).sort()).toEqual(
      [
        '_id',
        'name',
        'slug',
        'description',
        'supportedLanguages',
        'hasReportSpec',
        'active',
        'version',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    const all = await h.api().get('/api/v1/questionlists?includeInactive=true').set('x-api-key', reader.key);
    expect(all.body.map((l: { _id: string }) => l._id)).toEqual(expect.arrayContaining([active, inactive]));
  });

  it('when one template is read, then it has its questions; another organisation’s, unknown or malformed ids give 404', async () => {
    const id = await createTemplate(h, org);
    const res = await h.api().get(`/api/v1/questionlists/${id}`).set('x-api-key', org.adminKey);
    expect(res.status).toBe(200);
    expect(QuestionList.parse(res.body).sections).toHaveLength(3);
    for (const key of [other.adminKey]) {
      const foreign = await h.api().get(`/api/v1/questionlists/${id}`).set('x-api-key', key);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ success: false, status: 404, error: 'Question list not found' });
    }
    for (const bad of [unknownId, 'not-an-id']) {
      const res404 = await h.api().get(`/api/v1/questionlists/${bad}`).set('x-api-key', org.adminKey);
      expect(res404.status).toBe(404);
    }
  });
});

describe('PATCH /api/v1/questionlists/{id}', () => {
  it('when the name changes, then the version stays; when the questions change, then a new version is kept beside the old', async () => {
    const id = await createTemplate(h, org);
    const renamed = await h
      .api()
      .patch(`/api/v1/questionlists/${id}`)
      .set('x-api-key', org.adminKey)
      .send({ name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(QuestionList.parse(renamed.body)).toMatchObject({ name: 'Renamed', version: 1 });
    const body = templateBody();
    body.sections[2]!.questions.push({
      id: 'extra',
      type: 'date',
      title: { nl: 'Datum', fr: 'Date', en: 'Date' },
    } as never);
    const changed = await h
      .api()
      .patch(`/api/v1/questionlists/${id}`)
      .set('x-api-key', org.adminKey)
      .send({ sections: body.sections });
    expect(changed.status).toBe(200);
    expect(changed.body.version).toBe(2);
    expect(changed.body.sections[2].questions.map((q: { id: string }) => q.id)).toEqual(['remarks', 'extra']);
    expect(await versionsOf(id)).toEqual([{ version: 1 }, { version: 2 }]);
  });

  it('when deactivated, then it leaves the list; reactivated, it comes back', async () => {
    const id = await createTemplate(h, org);
    const off = await h
      .api()
      .patch(`/api/v1/questionlists/${id}`)
      .set('x-api-key', org.adminKey)
      .send({ active: false });
    expect(off.body.active).toBe(false);
    const listed = async () =>
      (await h.api().get('/api/v1/questionlists').set('x-api-key', org.adminKey)).body.map(
        (l: { _id: string }) => l._id,
      );
    expect(await listed()).not.toContain(id);
    await h.api().patch(`/api/v1/questionlists/${id}`).set('x-api-key', org.adminKey).send({ active: true });
    expect(await listed()).toContain(id);
  });

  it('when a change leaves the template inconsistent, then 400 names the field and nothing changes', async () => {
    const id = await createTemplate(h, org);
    const res = await h
      .api()
      .patch(`/api/v1/questionlists/${id}`)
      .set('x-api-key', org.adminKey)
      .send({ supportedLanguages: ['nl', 'en'], name: 'Should not stick' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toContain('sections[0].title.fr');
    expect(res.body.error).toMatch(/fr is not one of supportedLanguages/);
    const after = await h.api().get(`/api/v1/questionlists/${id}`).set('x-api-key', org.adminKey);
    expect(after.body.name).not.toBe('Should not stick');
    expect(after.body.supportedLanguages).toEqual(['nl', 'fr', 'en']);
  });

  it('when another organisation patches it, then 404 and nothing changes; an empty patch is 400', async () => {
    const id = await createTemplate(h, org);
    const res = await h
      .api()
      .patch(`/api/v1/questionlists/${id}`)
      .set('x-api-key', other.adminKey)
      .send({ active: false });
    expect(res.status).toBe(404);
    const after = await h.api().get(`/api/v1/questionlists/${id}`).set('x-api-key', org.adminKey);
    expect(after.body.active).toBe(true);
    const empty = await h.api().patch(`/api/v1/questionlists/${id}`).set('x-api-key', org.adminKey).send({});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/at least one field/);
  });
});
