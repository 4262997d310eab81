import { randomBytes } from 'node:crypto';
import { createApiKey, createUser } from '../../src/modules/admin/admin.service';
import { bootstrapOrganisation } from '../../src/modules/admin/bootstrap.service';
import { systemContext } from '../../src/platform/context';
import type { Group } from '../../src/platform/permissions';
import type { Harness } from './harness';

export interface TestOrg {
  organisationId: string;
  adminId: string;
  adminKey: string;
  portfolioId: string;
}

const unique = () => randomBytes(4).toString('hex');

/** A new organisation with an administrator, a default portfolio and the administrator's key. */
export async function createOrg(h: Harness, name = `Org ${unique()}`): Promise<TestOrg> {
  const r = await bootstrapOrganisation(h, { organisation: name, email: `admin-${unique()}@example.test` });
  return {
    organisationId: r.organisationId,
    adminId: r.userId,
    adminKey: r.apiKey,
    portfolioId: r.portfolioId,
  };
}

/** A user of the organisation in the given groups, with one API key. */
export async function createUserWithKey(
  h: Harness,
  org: TestOrg,
  groups: Group[],
  kind: 'staff' | 'service' = 'staff',
) {
  const ctx = systemContext(org.organisationId, h.clock.now());
  const user = await createUser(h, ctx, {
    email: `${unique()}@example.test`,
    name: 'Test user',
    kind,
    groups,
  });
  const key = await createApiKey(h, ctx, user._id, 'test key');
  return { userId: user._id, key: key.apiKey, keyId: key._id };
}

/** An id with the right shape that names nothing. */
export const unknownId = '01900000-0000-7000-8000-000000000000';
