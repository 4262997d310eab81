import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';
import { type TestModeDeps, testInboxOfLive } from '../testmode';
import { adminPage } from './admin-pages';
import type { DeskDeps } from './desk.service';
import { deskFrame } from './desk-pages';
import { testInboxPage } from './pages/test-inbox.pages';

/** How many messages the page shows (the newest). */
const SHOWN = 50;

/** The Test inbox (administrators, issue 31): test mode's e-mails and text messages, kept instead of sent. */
export function testInboxPageRoutes(routes: Routes, deps: DeskDeps & TestModeDeps): void {
  routes.staffPage(
    {
      ...adminPage,
      path: '/staff/integrations/test-inbox',
      summary:
        'The test inbox: test mode’s e-mails and text messages with their codes and links (administrators)',
      query: z.object({ to: z.string().max(320).optional() }),
      statuses: { 200: 'The test inbox', 303: 'Not signed in', 403: 'Not an administrator' },
    },
    async ({ ctx, query, csrf }) => {
      const to = query.to?.trim() ?? '';
      const inbox = await testInboxOfLive(deps, ctx, { to, limit: SHOWN });
      const frame = await deskFrame(deps, ctx, csrf());
      return { status: 200, html: testInboxPage(frame, { ...inbox, shown: SHOWN, to }) };
    },
  );
}
