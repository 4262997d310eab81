import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import {
  CreateCustomer,
  Customer,
  CustomerList,
  DeleteCustomerQuery,
  ListCustomersQuery,
  UpdateCustomer,
} from './customers.schemas';
import {
  type CustomerDeletionDeps,
  createCustomer,
  deleteCustomer,
  getCustomer,
  listCustomers,
  updateCustomer,
} from './customers.service';

const CustomerParams = z.object({ customerId: idParam('customerId') });
const tags = ['Customers'];

export function customerRoutes(routes: Routes, deps: CustomerDeletionDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/customers',
      summary: 'List contacts, paginated; search, filter by portfolio or find by thirdpartyId',
      tags,
      permission: 'read',
      query: ListCustomersQuery,
      response: CustomerList,
    },
    ({ ctx, query }) => listCustomers(deps, ctx, query),
  );
  routes.add(
    {
      method: 'get',
      path: '/customers/{customerId}',
      summary: 'Get one contact',
      tags,
      permission: 'read',
      params: CustomerParams,
      response: Customer,
    },
    ({ ctx, params }) => getCustomer(deps, ctx, params.customerId),
  );
  routes.add(
    {
      method: 'post',
      path: '/customers',
      summary: 'Create a contact',
      description: 'Returns the created contact. A thirdpartyId already used in the organisation gives 409.',
      tags,
      permission: 'create',
      body: CreateCustomer,
      status: 201,
      response: Customer,
      errors: [409],
    },
    ({ ctx, body }) => createCustomer(deps, ctx, body),
  );
  routes.add(
    {
      method: 'patch',
      path: '/customers/{customerId}',
      summary: 'Update a contact; data is merged key by key',
      tags,
      permission: 'update',
      params: CustomerParams,
      body: UpdateCustomer,
      response: Customer,
      errors: [409],
    },
    ({ ctx, params, body }) => updateCustomer(deps, ctx, params.customerId, body),
  );
  routes.add(
    {
      method: 'delete',
      path: '/customers/{customerId}',
      summary: 'Delete a contact',
      description:
        'A contact with actions is not deleted: 409 whose `details` say how many actions and submitted sessions the contact has (`in: state`, `sessionRequests.total` and `sessions.total`) and list up to 10 of each by id. With `cascade=true` (an erasure request) the contact, their actions with their history, sessions, session versions and the files those sessions listed (reports) are deleted in one transaction; the stored bytes are removed after it commits.',
      tags,
      permission: 'delete',
      params: CustomerParams,
      query: DeleteCustomerQuery,
      status: 204,
      responseDescription: 'Deleted',
      errors: [409],
    },
    async ({ ctx, params, query }) => {
      await deleteCustomer(deps, ctx, params.customerId, { cascade: query.cascade });
      return undefined;
    },
  );
}
