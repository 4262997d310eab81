import { notifyChoices } from '../../db/schema/enums';
import { languages } from '../../i18n/languages';
import type { Routes } from '../../platform/http/routes';
import { requestLanguages } from '../../platform/kernel/context';
import { z } from '../../platform/kernel/zod';
import { type DeskDeps, saveSettings, settingsOf } from './desk.service';
import { deskFrame, deskPage } from './desk-pages';
import { settingsPage } from './pages/settings.pages';

const tags = ['Staff pages'];

/** The signed-in user's own settings: the pages' language and the e-mails about their actions. */
export function settingsRoutes(routes: Routes, deps: DeskDeps): void {
  routes.staffPage(
    {
      ...deskPage,
      tags,
      path: '/staff/settings',
      summary: 'Your settings: the staff pages’ language, e-mails about your actions',
      permission: 'read',
      query: z.object({ done: z.string().max(20).optional() }),
      statuses: { 200: 'The settings', 303: 'Not signed in' },
    },
    async ({ ctx, query, csrf }) => {
      const settings = await settingsOf(deps, ctx);
      return {
        status: 200,
        html: settingsPage(await deskFrame(deps, ctx, csrf()), {
          ...settings,
          browser: requestLanguages(),
          saved: query.done === 'saved',
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...deskPage,
      tags,
      method: 'post',
      path: '/staff/settings',
      summary: 'Save your settings (form post)',
      permission: 'read',
      form: z.object({
        _csrf: z.string().max(300),
        language: z.enum(languages).or(z.literal('')).optional(),
        notify: z.enum(notifyChoices).optional(),
      }),
      statuses: { 303: 'Saved: back to the settings', 400: 'An unknown language or choice' },
    },
    async ({ ctx, form }) => {
      await saveSettings(deps, ctx, { language: form.language || null, notify: form.notify ?? 'each' });
      return { redirect: '/staff/settings?done=saved' };
    },
  );
}
