import request from 'supertest';
import { createContact, createTemplate, type TestOrg } from './fixtures';
import type { Harness } from './harness';

/** A one-question template that asks for a PDF report; returns its id. */
export function createReportTemplate(h: Harness, org: TestOrg) {
  return createTemplate(h, org, {
    supportedLanguages: ['nl'],
    hasReportSpec: true,
    sections: [
      {
        id: 's',
        title: { nl: 'Vraag' },
        questions: [{ id: 'q', type: 'short_text', title: { nl: 'Naam' }, required: true }],
      },
    ],
  });
}

/**
 * Answers and submits an action the way the contact does, through the public pages (CSRF cookie, one
 * step, submit): the session, its version and its report are made by the same use case as in real use.
 */
export async function submitAsContact(h: Harness, code: string, answer = 'Marie') {
  const agent = request.agent(h.server);
  const first = await agent.get(`/action/${code}`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
  const post = (fields: [string, string][], path = '') =>
    agent
      .post(`/action/${code}${path}?lang=nl`)
      .type('form')
      .send(new URLSearchParams([['_csrf', csrf], ...fields]).toString());
  const step = await post([
    ['step', '0'],
    ['nav', 'next'],
    ['q.q', answer],
  ]);
  if (step.status !== 303) throw new Error(`step: ${step.status}`);
  const submitted = await post([], '/submit');
  if (submitted.status !== 303) throw new Error(`submit: ${submitted.status}`);
  // The report is made by a job; the action completes with it.
  await h.jobs.drain();
}

export interface Submitted {
  actionId: string;
  sessionId: string;
  /** The report files of every submitted version, oldest first. */
  reportIds: string[];
}

/**
 * An action for the contact (a new one when not given), submitted `times` times (reopened in between),
 * so its session has that many versions, each with its own report.
 */
export async function submittedSession(
  h: Harness,
  org: TestOrg,
  opts: { template: string; contact?: string; times?: number },
): Promise<Submitted & { contact: string }> {
  const contact =
    opts.contact ?? (await createContact(h, org, { Voornaam: 'Marie', Email: 'marie@example.test' }));
  const created = await h
    .api()
    .post('/api/v1/sessionrequests')
    .set('x-api-key', org.adminKey)
    .send({ type: 'qlist', customerId: contact, questionListIds: [opts.template] });
  if (created.status !== 201) throw new Error(`action: ${created.status} ${JSON.stringify(created.body)}`);
  const { _id: actionId, code } = created.body as { _id: string; code: string };
  const reportIds: string[] = [];
  let sessionId = '';
  for (let i = 0; i < (opts.times ?? 1); i++) {
    if (i > 0) {
      const reopened = await h
        .api()
        .post(`/api/v1/sessionrequests/${actionId}/reopen`)
        .set('x-api-key', org.adminKey);
      if (reopened.status !== 200) throw new Error(`reopen: ${reopened.status}`);
    }
    await submitAsContact(h, code, `Marie ${i}`);
    const list = await h
      .api()
      .get(`/api/v1/sessions?sessionRequestId=${actionId}`)
      .set('x-api-key', org.adminKey);
    const session = list.body.sessions[0] as { _id: string; documents: { fileId: string }[] };
    sessionId = session._id;
    reportIds.push(session.documents[0]!.fileId);
  }
  return { contact, actionId, sessionId, reportIds };
}
