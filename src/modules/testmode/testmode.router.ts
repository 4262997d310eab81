import type { Routes } from '../../platform/http/routes';
import { fastForward, SessionRequestDetail } from '../sessionrequests';
import {
  FastForward,
  ListTestMessagesQuery,
  SessionRequestParams,
  TestMessage,
  TestMessageList,
  TestMessageParams,
  WipedTestData,
} from './testmode.schemas';
import { getTestMessage, listTestMessages, type TestModeDeps, wipeTestData } from './testmode.service';

const tags = ['Test mode'];
const onlyInTest = 'Test credentials only (`adk_test_…` keys, test OAuth clients): 403 with live ones.';

/** What only test credentials may ask (issue 31, docs/test-mode.md): the test inbox. */
export function testModeRoutes(routes: Routes, deps: TestModeDeps & Parameters<typeof fastForward>[0]): void {
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
  routes.add(
    {
      method: 'post',
      path: '/test/sessionrequests/{actionId}/fast-forward',
      summary: 'Make an action’s next reminder, or its expiry, happen now (test mode)',
      description: `The reminders (every channel) of the earliest reminder still to come are due at once, or the action’s expiresAt becomes now and it expires; the worker then sends (into the test inbox) or expires as it would have. Answers the action, its notifications showing what is due. 409 when there is nothing to fast-forward (no reminder to come, no expiry, the action closed). ${onlyInTest}`,
      tags,
      permission: 'update',
      params: SessionRequestParams,
      body: FastForward,
      response: SessionRequestDetail,
      errors: [403, 404, 409],
    },
    ({ ctx, params, body }) => fastForward(deps, ctx, params.actionId, body.to),
  );
  routes.add(
    {
      method: 'delete',
      path: '/test/data',
      summary: 'Delete every test record of the organisation, keeping its test keys and clients',
      description: `Contacts, templates, actions, sessions, files, setups, webhooks, events and the test inbox go; the test API keys and OAuth clients (and their users) stay, and a default portfolio is made anew. OAuth tokens end: fetch a new one. Administrators only. ${onlyInTest}`,
      tags,
      permission: 'admin',
      response: WipedTestData,
      errors: [403],
    },
    ({ ctx }) => wipeTestData(deps, ctx),
  );
}
