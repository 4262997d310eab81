import type { Routes } from '../../platform/http/routes';
import { ListTestMessagesQuery, TestMessage, TestMessageList, TestMessageParams } from './testmode.schemas';
import { getTestMessage, listTestMessages, type TestModeDeps } from './testmode.service';

const tags = ['Test mode'];
const onlyInTest = 'Test credentials only (`adk_test_…` keys, test OAuth clients): 403 with live ones.';

/** What only test credentials may ask (issue 31, docs/test-mode.md): the test inbox. */
export function testModeRoutes(routes: Routes, deps: TestModeDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/test/messages',
      summary: 'The test inbox: e-mails and SMS kept instead of sent, newest first',
      description: `Every e-mail and SMS the organisation’s test records would have sent — invitations, reminders, one-time codes, signed copies, adviser notices — with the links and codes in them, so a script can drive a whole signing flow. ${onlyInTest}`,
      tags,
      permission: 'read',
      query: ListTestMessagesQuery,
      response: TestMessageList,
      errors: [403],
    },
    ({ ctx, query }) => listTestMessages(deps, ctx, query),
  );
  routes.add(
    {
      method: 'get',
      path: '/test/messages/{messageId}',
      summary: 'One message of the test inbox',
      description: onlyInTest,
      tags,
      permission: 'read',
      params: TestMessageParams,
      response: TestMessage,
      errors: [403, 404],
    },
    ({ ctx, params }) => getTestMessage(deps, ctx, params.messageId),
  );
}
