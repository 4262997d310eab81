import type { RequestContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import type { Routes } from '../../platform/http/routes';
import { idParam } from '../../platform/schemas';
import { z } from '../../platform/zod';
import { contactName } from '../../web/staff-desk-pages';
import { type StaffUser, staffErrorPage } from '../../web/staff-layout';
import {
  actionWizard,
  contactStep,
  type OptionsValues,
  quickSignWizard,
  sentPage,
  setupProblemPage,
  type WizardFrame,
} from '../../web/staff-wizard-pages';
import { getCustomer, getCustomersById, listCustomers } from '../customers';
import { listQuestionLists } from '../questionlists';
import type { DocumentPreviews } from '../signing';
import { getActionSetup, getQuickSigningSetup } from './setups.service';
import {
  type ActionChoice,
  dataChanges,
  filePage,
  filePages,
  type Person,
  type SendOptions,
  sendActions,
  sendQuickSigning,
  sentActions,
  type WizardDeps,
} from './wizard.service';

const tags = ['Staff pages: the wizard (deep links)'];

export interface WizardRouteDeps extends WizardDeps {
  previews: DocumentPreviews;
  /** The signed-in user as the page frame shows them. */
  staffUserOf(ctx: RequestContext): Promise<StaffUser>;
}

const one = z.string().max(2000);
/** A field that may be repeated (checkboxes): always a list. */
const many = (max: number) =>
  z
    .union([z.string().max(200), z.array(z.string().max(200)).max(max)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

const OptionsForm = {
  _csrf: one,
  email: z.literal('yes').optional(),
  sms: z.literal('yes').optional(),
  reminder1Days: z.string().max(10).optional(),
  reminder2Days: z.string().max(10).optional(),
  expiresOn: z.string().max(20).optional(),
  language: z.enum(['nl', 'fr', 'en']).optional(),
  message: z.string().max(4000).optional(),
  signatureLevel: z.enum(['simple', 'qualified']).optional(),
};
const QuickForm = z.object(OptionsForm);
const ActionForm = z.object({
  ...OptionsForm,
  include: many(50),
  contact: many(50),
  questionListIds: many(20),
  type: z.enum(['qlist', 'multisigning']).default('qlist'),
  together: z.literal('yes').optional(),
  signingOrder: z.literal('sequential').optional(),
});
type OptionsInput = z.output<typeof QuickForm>;

/** Reads the options step; problems are named for the page (and nothing is sent). */
function readOptions(f: OptionsInput): { options: SendOptions; values: OptionsValues; problems: string[] } {
  const problems: string[] = [];
  const days = (raw: string | undefined, label: string) => {
    const text = raw?.trim() ?? '';
    if (!text) return undefined;
    const n = Number(text);
    if (!/^\d{1,3}$/.test(text) || n < 1 || n > 365) {
      problems.push(`${label}: give a number of days from 1 to 365`);
      return undefined;
    }
    return n;
  };
  const reminder1Days = days(f.reminder1Days, 'First reminder');
  const reminder2Days = days(f.reminder2Days, 'Second reminder');
  if (reminder1Days !== undefined && reminder2Days !== undefined && reminder2Days <= reminder1Days) {
    problems.push('Second reminder: must come after the first');
  }
  const expiresOn = f.expiresOn?.trim() || undefined;
  let expiresAt: string | undefined;
  if (expiresOn) {
    // A real day: 2026-02-30 is refused, not rolled over into March.
    const day = new Date(`${expiresOn}T23:59:59Z`);
    const ok =
      /^\d{4}-\d\d-\d\d$/.test(expiresOn) &&
      !Number.isNaN(day.getTime()) &&
      day.toISOString().slice(0, 10) === expiresOn;
    if (ok) expiresAt = `${expiresOn}T23:59:59Z`;
    else problems.push('Link works until: give a date such as 2026-12-31');
  }
  const message = f.message?.trim() || undefined;
  if (message && message.length > 2000) problems.push('Personal message: at most 2000 characters');
  const options: SendOptions = {
    email: f.email === 'yes',
    sms: f.sms === 'yes',
    reminder1Days,
    reminder2Days,
    language: f.language,
    message,
    expiresAt,
    signatureLevel: f.signatureLevel,
  };
  if (!options.email && !options.sms) problems.push('Send the invitation by: choose e-mail, SMS or both');
  const values: OptionsValues = {
    email: options.email,
    sms: options.sms,
    reminder1Days,
    reminder2Days,
    language: f.language,
    message,
    expiresOn,
    signatureLevel: f.signatureLevel,
  };
  return { options, values, problems };
}

/** A service refusal (400 naming fields, 409) as lines for the page. */
function problemsOf(err: unknown): string[] {
  if (err instanceof AppError && (err.status === 400 || err.status === 409)) {
    return err.details?.length ? err.details.map((d) => `${d.field}: ${d.message}`) : [err.message];
  }
  throw err;
}

export function wizardRoutes(routes: Routes, deps: WizardRouteDeps): void {
  const common = {
    tags,
    audience: 'staff' as const,
    errorPage: staffErrorPage,
    permission: 'create' as const,
  };
  const frameOf = async (ctx: RequestContext, csrf: string): Promise<WizardFrame> => ({
    me: await deps.staffUserOf(ctx),
    csrf,
  });
  /** A setup that cannot be opened: its own clear page (410 used or expired, 404 unknown or not ours). */
  const setupProblem = async (err: unknown, ctx: RequestContext, csrf: string) => {
    if (err instanceof AppError && (err.status === 404 || err.status === 410)) {
      const title = err.status === 404 ? 'This link is not known here' : 'This link can no longer be used';
      const text =
        err.status === 404
          ? 'It may belong to another organisation, or it was mistyped.'
          : err.message.replace(/: make a new one$/, '.');
      return {
        status: err.status,
        html: setupProblemPage(title, text, await frameOf(ctx, csrf)),
      };
    }
    throw err;
  };
  const templatesOf = async (ctx: RequestContext) =>
    (await listQuestionLists(deps, ctx, false)).map((t) => ({
      id: t._id,
      name: t.name,
      languages: t.supportedLanguages,
    }));
  const choiceOf = (form: z.output<typeof ActionForm>, options: SendOptions): ActionChoice => ({
    ...options,
    type: form.type,
    questionListIds: form.questionListIds,
    together: form.together === 'yes',
    signingOrder: form.signingOrder === 'sequential' ? 'sequential' : 'parallel',
  });
  /** What sending would change on a found contact (the setup's data wins), for the page to say. */
  const changesOf = async (ctx: RequestContext, contactId: string | undefined, person: Person) => {
    if (!contactId) return [];
    const stored = await getCustomer(deps, ctx, contactId).catch(() => null);
    return stored ? dataChanges(stored.data, person) : [];
  };
  /** The contacts the adviser ticked, in the order ticked, as the wizard lists them. */
  const pickedPeople = async (ctx: RequestContext, ids: string[]) => {
    const found = await getCustomersById(deps, ctx, ids);
    return ids.flatMap((id) => {
      const c = found.get(id);
      return c
        ? [
            {
              value: c._id,
              checked: true,
              name: contactName(c.data),
              email: c.data.Email,
              matched: 'email' as const,
            },
          ]
        : [];
    });
  };
  /** The action step's choices as the form sent them, to show the step again. */
  const actionValues = (form: z.output<typeof ActionForm>, values: OptionsValues) => ({
    ...values,
    type: form.type,
    together: form.together === 'yes',
    questionListIds: form.questionListIds,
    signingOrder: form.signingOrder,
  });
  /**
   * A deep link's send: the actions made (303 to the list of them), or the step again (400) with the
   * problems named; a setup that cannot be used (any more) gets its own page instead.
   */
  const sendOrShowAgain = async (
    ctx: RequestContext,
    csrf: () => string,
    problems: string[],
    send: () => Promise<string[]>,
    again: () => Promise<string>,
  ) => {
    try {
      if (problems.length === 0) return sent(await send());
    } catch (err) {
      if (err instanceof AppError && (err.status === 404 || err.status === 410)) {
        return setupProblem(err, ctx, csrf());
      }
      problems.push(...problemsOf(err));
    }
    try {
      return { status: 400, html: await again() };
    } catch (err) {
      return setupProblem(err, ctx, csrf());
    }
  };
  const sent = (ids: string[]) => ({
    redirect: `/sessionrequests/sent?${ids.map((id) => `id=${id}`).join('&')}`,
  });

  // Registered before /sessionrequests/{actionSetupId}: these paths are not setup ids.
  routes.staffPage(
    {
      ...common,
      path: '/sessionrequests/new',
      summary: 'The action wizard without a setup: pick contacts, then templates and notifications',
      description:
        'Query: `q` (search the contacts), `contact` (repeated: the contacts ticked), `step=options` (go on with them).',
      query: z.object({
        q: z.string().max(200).optional(),
        contact: many(50),
        step: z.literal('options').optional(),
      }),
      statuses: { 200: 'The contact step, or the options step', 303: 'Not signed in' },
    },
    async ({ ctx, query, csrf }) => {
      const frame = await frameOf(ctx, csrf());
      if (query.step === 'options' && query.contact.length > 0) {
        const people = await pickedPeople(ctx, query.contact);
        return {
          status: 200,
          html: actionWizard(frame, {
            action: '/sessionrequests/new',
            people,
            peopleField: 'contact',
            templates: await templatesOf(ctx),
            qualified: deps.qualifiedSigning,
            fromSetup: false,
          }),
        };
      }
      const q = query.q?.trim() ?? '';
      const found = await listCustomers(deps, ctx, { search: q || undefined, page: 1, limit: 25 });
      return {
        status: 200,
        html: contactStep(frame, {
          q,
          total: found.total,
          found: found.customers.map((c) => ({
            id: c._id,
            name: contactName(c.data),
            email: c.data.Email ?? '',
          })),
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/sessionrequests/new',
      summary: 'Send actions to the contacts picked (form post)',
      description:
        'Fields: `_csrf`, `contact` (repeated), `questionListIds` (repeated), `type` (qlist|multisigning), `together` (`yes`: one multisigning action they all sign), `signingOrder` (`sequential`), `email`/`sms` (`yes`), `reminder1Days`, `reminder2Days`, `expiresOn` (YYYY-MM-DD, end of that day UTC), `language`, `message`, `signatureLevel`. All actions are made, or none.',
      form: ActionForm,
      statuses: { 303: 'Sent: to the page listing them', 400: 'The form again with the problems named' },
    },
    async ({ ctx, form, csrf }) => {
      const { options, values, problems } = readOptions(form);
      if (problems.length === 0) {
        try {
          return sent(await sendActions(deps, ctx, { contactIds: form.contact }, choiceOf(form, options)));
        } catch (err) {
          problems.push(...problemsOf(err));
        }
      }
      const people = await pickedPeople(ctx, form.contact);
      return {
        status: 400,
        html: actionWizard(await frameOf(ctx, csrf()), {
          action: '/sessionrequests/new',
          people,
          peopleField: 'contact',
          templates: await templatesOf(ctx),
          values: actionValues(form, values),
          problems,
          qualified: deps.qualifiedSigning,
          fromSetup: false,
        }),
      };
    },
  );

  routes.staffPage(
    {
      ...common,
      path: '/sessionrequests/sent',
      summary: 'The actions a wizard just made',
      query: z.object({ id: many(50) }),
      statuses: { 200: 'The list', 303: 'Not signed in' },
    },
    async ({ ctx, query, csrf }) => {
      const actions = await sentActions(deps, ctx, query.id);
      return {
        status: 200,
        html: sentPage(
          await frameOf(ctx, csrf()),
          actions.map((a) => ({
            id: a.id,
            label: `${a.type} action`,
            url: `${deps.baseUrl}/action/${a.code}`,
          })),
        ),
      };
    },
  );

  const QuickParams = z.object({ setupId: idParam('setupId') });
  const quickView = async (ctx: RequestContext, setupId: string) => {
    const setup = await getQuickSigningSetup(deps, ctx, setupId);
    const pages = await filePages(deps, ctx, setup.document.fileid);
    const c = setup.customer;
    const person = { firstname: c.firstname, lastname: c.lastname, email: c.email, phone: c.gsm };
    return {
      action: `/sessionrequests/quicksigningrequest/${setupId}`,
      contact: {
        name: `${c.firstname} ${c.lastname}`,
        email: c.email,
        phone: c.gsm,
        guid: c.guid,
        matched: setup.customer.contact?.by ?? null,
        changes: await changesOf(ctx, setup.customer.contact?._id, person),
      },
      document: {
        title: setup.document.title,
        type: setup.document.type,
        fileName: setup.document.fileName,
        size: setup.document.size,
        pages: pages.pages,
        preview: pages.images ? `/staff/files/${setup.document.fileid}/pages/1` : null,
      },
      qualified: deps.qualifiedSigning,
    };
  };

  routes.staffPage(
    {
      ...common,
      path: '/sessionrequests/quicksigningrequest/{setupId}',
      summary:
        'Quick-signing deep link (spec 4.10): opens at the signing options with the contact and the PDF',
      params: QuickParams,
      statuses: {
        200: 'The signing options step',
        303: 'Not signed in: to sign-in, then back here',
        404: 'Unknown setup, or one of another organisation',
        410: 'The setup was used or has expired',
      },
    },
    async ({ ctx, params, csrf }) => {
      try {
        return {
          status: 200,
          html: quickSignWizard(await frameOf(ctx, csrf()), await quickView(ctx, params.setupId)),
        };
      } catch (err) {
        return setupProblem(err, ctx, csrf());
      }
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/sessionrequests/quicksigningrequest/{setupId}',
      summary: 'Send the quick-signing action (form post): the contact found or made, the setup spent',
      description:
        'Fields: `_csrf`, `email`/`sms` (`yes`), `reminder1Days`, `reminder2Days`, `expiresOn`, `language`, `message`, `signatureLevel`.',
      params: QuickParams,
      form: QuickForm,
      statuses: {
        303: 'Sent',
        400: 'The form again with the problems named',
        404: 'Unknown setup',
        410: 'The setup was used (e.g. sent from another tab) or has expired',
      },
    },
    async ({ ctx, params, form, csrf }) => {
      const { options, values, problems } = readOptions(form);
      return sendOrShowAgain(
        ctx,
        csrf,
        problems,
        () => sendQuickSigning(deps, ctx, params.setupId, options),
        async () =>
          quickSignWizard(await frameOf(ctx, csrf()), {
            ...(await quickView(ctx, params.setupId)),
            values,
            problems,
          }),
      );
    },
  );

  const ActionParams = z.object({ actionSetupId: idParam('actionSetupId') });
  const actionView = async (ctx: RequestContext, setupId: string, checked?: Set<string>) => {
    const setup = await getActionSetup(deps, ctx, setupId);
    const changes = await Promise.all(setup.customers.map((c) => changesOf(ctx, c.contact?._id, c)));
    return {
      action: `/sessionrequests/${setupId}`,
      people: setup.customers.map((c, i) => ({
        changes: changes[i] ?? [],
        value: String(i),
        checked: checked ? checked.has(String(i)) : true,
        name: [c.firstname, c.lastname].filter(Boolean).join(' ') || c.email || c.thirdpartyId || '(no name)',
        email: c.email,
        thirdpartyId: c.thirdpartyId,
        matched: c.contact?.by ?? null,
        problem:
          !c.contact && !c.email
            ? `No contact has the reference ${c.thirdpartyId}, and there is no e-mail address to make one.`
            : undefined,
      })),
      peopleField: 'include' as const,
      templates: await templatesOf(ctx),
      qualified: deps.qualifiedSigning,
      fromSetup: true,
    };
  };

  routes.staffPage(
    {
      ...common,
      path: '/sessionrequests/{actionSetupId}',
      summary: 'Action deep link (spec 4.11): the action wizard with the contacts selected',
      params: ActionParams,
      statuses: {
        200: 'The templates and notifications step',
        303: 'Not signed in: to sign-in, then back here',
        404: 'Unknown setup, or one of another organisation',
        410: 'The setup was used or has expired',
      },
    },
    async ({ ctx, params, csrf }) => {
      try {
        return {
          status: 200,
          html: actionWizard(await frameOf(ctx, csrf()), await actionView(ctx, params.actionSetupId)),
        };
      } catch (err) {
        return setupProblem(err, ctx, csrf());
      }
    },
  );

  routes.staffPage(
    {
      ...common,
      method: 'post',
      path: '/sessionrequests/{actionSetupId}',
      summary: 'Send the actions of an action setup (form post): contacts found or made, the setup spent',
      description:
        'Fields as `POST /sessionrequests/new`, with `include` (repeated: the setup’s contacts by position, from 0) instead of `contact`.',
      params: ActionParams,
      form: ActionForm,
      statuses: {
        303: 'Sent',
        400: 'The form again with the problems named',
        404: 'Unknown setup',
        410: 'The setup was used or has expired',
      },
    },
    async ({ ctx, params, form, csrf }) => {
      const { options, values, problems } = readOptions(form);
      const include = form.include.filter((i) => /^\d{1,2}$/.test(i)).map(Number);
      return sendOrShowAgain(
        ctx,
        csrf,
        problems,
        () => sendActions(deps, ctx, { setupId: params.actionSetupId, include }, choiceOf(form, options)),
        async () =>
          actionWizard(await frameOf(ctx, csrf()), {
            ...(await actionView(ctx, params.actionSetupId, new Set(form.include))),
            values: actionValues(form, values),
            problems,
          }),
      );
    },
  );

  routes.add(
    {
      method: 'get',
      path: '/staff/files/{fileId}/pages/{page}',
      summary: 'A page of a PDF of the organisation as an image (PNG), for the wizard’s preview',
      tags,
      permission: 'read',
      accepts: ['session', 'api_key'],
      params: z.object({ fileId: idParam('fileId'), page: z.string().max(5) }),
      binary: { contentType: 'image/png', description: 'The page, 1100 pixels wide' },
      errors: [404],
    },
    async ({ ctx, params, res }) => {
      const page = /^\d{1,4}$/.test(params.page) ? Number(params.page) : 0;
      const png = await filePage(deps, ctx, params.fileId, page);
      if (!png) throw new AppError(404, 'This page cannot be drawn on this server');
      res.status(200);
      res.setHeader('Content-Type', 'image/png');
      res.setHeader('Content-Length', String(png.length));
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.end(png);
      return undefined;
    },
  );
}
