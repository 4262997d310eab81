// The organisation the create benches load: 1,000 contacts and the demo templates, seeded through the
// services on the database the bench names, with the API key the load sends.
import { listCustomers } from '../../src/modules/customers/customers.service';
import { seedContacts } from '../../src/modules/customers/seed.service';
import { bootstrapOrganisation } from '../../src/modules/organisations/bootstrap.service';
import { seedTemplates } from '../../src/modules/questionlists/demo-templates';
import { listQuestionLists } from '../../src/modules/questionlists/questionlists.service';
import { openDatabase } from '../../src/platform/db/open';
import { systemClock } from '../../src/platform/kernel/clock';
import { systemContext } from '../../src/platform/kernel/context';
import type { BareFixture } from '../bench-bare-create';

export async function seedCreateFixture(target: Parameters<typeof openDatabase>[0]): Promise<BareFixture> {
  const database = await openDatabase(target);
  try {
    const deps = { database, clock: systemClock };
    const org = await bootstrapOrganisation(deps, {
      organisation: `Bench ${new Date().toISOString()}`,
      email: 'bench@example.test',
    });
    await seedContacts(deps, org.organisationId, 1000);
    await seedTemplates(deps, org.organisationId);
    const ctx = systemContext(org.organisationId);
    const contacts = await listCustomers(deps, ctx, { page: 1, limit: 100 });
    const templates = await listQuestionLists(deps, ctx, false);
    return {
      organisationId: org.organisationId,
      userId: org.userId,
      apiKey: org.apiKey,
      customerIds: contacts.customers.map((c) => c._id),
      templateId: templates[0]!._id,
    };
  } finally {
    await database.close();
  }
}

/** The e-mail create the benches send, the bare reference's only request. */
export const EMAIL_INVITATION = { notificationEmail: { send: true } };

/** The body of a bench's create for the contact `n` (round robin over the fixture's), with `extra`. */
export function createBody(fixture: BareFixture, n: number, extra: Record<string, unknown>): string {
  return JSON.stringify({
    type: 'qlist',
    customerId: fixture.customerIds[n % fixture.customerIds.length],
    questionListIds: [fixture.templateId],
    ...extra,
  });
}
