import type { SendField, SendProblem, SendProblemKey, SignerSays } from '../../i18n/desk-send-problems';
import type { RequestContext } from '../../platform/kernel/context';
import { AppError } from '../../platform/kernel/errors';
import { type StaffPageFrame, staffErrorPage } from '../../platform/web/staff-layout';
import { contactEmail, contactLabel, contactPhone, getCustomer, getCustomersById } from '../customers';
import type { DocumentPreviews } from '../files';
import { listQuestionLists } from '../questionlists';
import { setupProblemPage } from './pages/wizard.pages';
import { SetupGone } from './setups.service';
import { dataChanges, type Person, type WizardDeps } from './wizard.service';

// What the wizard's pages share: their declaration, the page frame, and the view models of contacts,
// templates and a setup that cannot be used.

export const tags = ['Staff pages: the wizard (deep links)'];

export interface WizardRouteDeps extends WizardDeps {
  previews: DocumentPreviews;
  /** The signed-in user as the page frame shows them. */
  staffFrameOf(ctx: RequestContext, csrf: string): Promise<StaffPageFrame>;
}

/** What every wizard page declares: a staff page that needs the `create` permission. */
export const wizardPage = {
  tags,
  audience: 'staff' as const,
  errorPage: staffErrorPage,
  permission: 'create' as const,
};

/** The page frame: who is signed in, and the form's CSRF token. */
export const frameOf = async (
  deps: WizardRouteDeps,
  ctx: RequestContext,
  csrf: string,
): Promise<StaffPageFrame> => deps.staffFrameOf(ctx, csrf);

/** A setup that cannot be opened: its own clear page (410 used or expired, 404 unknown or not ours). */
export const setupProblem = async (
  deps: WizardRouteDeps,
  err: unknown,
  ctx: RequestContext,
  csrf: string,
) => {
  if (err instanceof AppError && (err.status === 404 || err.status === 410)) {
    const problem =
      err instanceof SetupGone
        ? err.how === 'used'
          ? { used: err.at }
          : { expired: err.at }
        : { unknown: true as const };
    return { status: err.status, html: setupProblemPage(await frameOf(deps, ctx, csrf), problem) };
  }
  throw err;
};

/** The organisation's templates, as the action step offers them. */
export const templatesOf = async (deps: WizardRouteDeps, ctx: RequestContext) =>
  (await listQuestionLists(deps, ctx, false)).map((t) => ({
    id: t._id,
    name: t.name,
    languages: t.supportedLanguages,
  }));

/** What sending would change on a found contact (the setup's data wins), for the page to say. */
export const changesOf = async (
  deps: WizardRouteDeps,
  ctx: RequestContext,
  contactId: string | undefined,
  person: Person,
) => {
  if (!contactId) return [];
  const stored = await getCustomer(deps, ctx, contactId).catch(() => null);
  return stored ? dataChanges(stored.data, person) : [];
};

/** The contacts the adviser ticked, in the order ticked, as the wizard lists them. */
export const pickedPeople = async (deps: WizardRouteDeps, ctx: RequestContext, ids: string[]) => {
  const found = await getCustomersById(deps, ctx, ids);
  return ids.flatMap((id) => {
    const c = found.get(id);
    return c
      ? [
          {
            value: c._id,
            checked: true,
            name: contactLabel(c.data),
            email: contactEmail(c.data) ?? undefined,
            phone: Boolean(contactPhone(c.data)),
            matched: 'email' as const,
          },
        ]
      : [];
  });
};

/** The service's refusals the send flow has words for: its field, what it says, and the problem. */
const known: [RegExp, RegExp, SendProblemKey | SignerSays][] = [
  [/^(contacts|customerIds)$/, /at least one contact/, 'noContacts'],
  [/^(contacts|customerIds)$/, /at most 10 signers/, 'tooManySigners'],
  [/^questionListIds$/, /at least one template/, 'noTemplates'],
  [/./, /no default portfolio/, 'noPortfolio'],
  [/./, /is not a contact/, 'unknown'],
  [/./, /has neither an e-mail address/, 'noWay'],
  [/./, /has no e-mail address/, 'noEmail'],
  [/./, /has no (mobile|phone) number/, 'noPhone'],
  [/^notificationSms/, /phone number \(data\.Telefoon\)/, 'badPhone'],
];
const signerSays = new Set<string>(['noEmail', 'noPhone', 'badPhone', 'noWay', 'unknown']);

/** The form's part a service field belongs to. */
const partOf: [RegExp, SendField][] = [
  [/^document\.fileId|^fileId/, 'file'],
  [/^document\.title/, 'title'],
  [/^(customerIds|customerId|contacts)/, 'signers'],
  [/^notification/, 'channels'],
  [/^expiresAt/, 'expires'],
  [/^reminder/, 'reminders'],
  [/^questionListIds/, 'templates'],
];

/**
 * A service refusal (400 naming fields, 409) as the page's problems: the ones the flow has words for by
 * name (a signer's by the contact's id: `ids` are the contacts in the order sent), others in the
 * service's words against the form's part.
 */
export function problemsOf(err: unknown, ids: readonly string[] = []): SendProblem[] {
  if (!(err instanceof AppError && (err.status === 400 || err.status === 409))) throw err;
  if (!err.details?.length) return [{ field: null, text: err.message }];
  return err.details.map((d): SendProblem => {
    const unmatched = /^no contact has thirdpartyId (.*) and there is no e-mail/.exec(d.message);
    if (unmatched) return { signer: unmatched[1] ?? '', says: 'unmatched' };
    const hit = known.find(([field, says]) => field.test(d.field) && says.test(d.message))?.[2];
    if (hit && signerSays.has(hit)) {
      const at = /\[(\d+)\]/.exec(d.field)?.[1];
      return { signer: ids[at === undefined ? 0 : Number(at)] ?? null, says: hit as SignerSays };
    }
    if (hit) return hit as SendProblemKey;
    return { field: partOf.find(([field]) => field.test(d.field))?.[1] ?? null, text: d.message };
  });
}

/** After a send: to the page listing the actions made. */
export const sent = (ids: string[]) => ({
  redirect: `/sessionrequests/sent?${ids.map((id) => `id=${id}`).join('&')}`,
});

/**
 * A deep link's send: the actions made (303 to the list of them), or the step again (400) with the
 * problems named; a setup that cannot be used (any more) gets its own page instead.
 */
export const sendOrShowAgain = async (
  deps: WizardRouteDeps,
  ctx: RequestContext,
  csrf: () => string,
  problems: SendProblem[],
  send: () => Promise<string[]>,
  again: () => Promise<string>,
) => {
  try {
    if (problems.length === 0) return sent(await send());
  } catch (err) {
    if (err instanceof AppError && (err.status === 404 || err.status === 410)) {
      return setupProblem(deps, err, ctx, csrf());
    }
    problems.push(...problemsOf(err));
  }
  try {
    return { status: 400, html: await again() };
  } catch (err) {
    return setupProblem(deps, err, ctx, csrf());
  }
};
