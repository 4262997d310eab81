import type { Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, NotFound } from '../../platform/kernel/errors';
import {
  contactById,
  contactDataOf,
  insertContact,
  matchContacts,
  thirdpartyIdTaken,
  updateContact,
} from '../customers';
import type { DocumentPreviews } from '../files';
import { fileById } from '../files';
import { defaultPortfolio } from '../portfolios';
import type { Language } from '../questionlists';
import {
  actionById,
  type CreateSessionRequest,
  createSessionRequestIn,
  type SessionRequestDeps,
} from '../sessionrequests';
import { setupRepository } from './setups.repository';
import type { ActionSetupBody, QuickSigningSetupBody } from './setups.schemas';
import { checkOwner, type SetupDeps, usableSetup } from './setups.service';

export type WizardDeps = SetupDeps & SessionRequestDeps;

/** What the adviser chooses in the wizard's options step. */
export interface SendOptions {
  email: boolean;
  sms: boolean;
  reminder1Days?: number;
  reminder2Days?: number;
  language?: Language;
  message?: string;
  /** ISO date-time. */
  expiresAt?: string;
  signatureLevel?: 'simple' | 'qualified';
}

/** A person from a setup, to find among the contacts or to create. */
export interface Person {
  firstname?: string;
  lastname?: string;
  email?: string;
  phone?: string;
  thirdpartyId?: string;
}

/** The contact data fields a setup's person carries. */
function personData(person: Person): Record<string, string> {
  return contactDataOf({
    firstName: person.firstname,
    lastName: person.lastname,
    email: person.email,
    phone: person.phone,
  });
}

/** What sending would change on a found contact: the setup's fields that differ from the stored ones. */
export function dataChanges(
  stored: Record<string, string>,
  person: Person,
): { field: string; from: string | null; to: string }[] {
  return Object.entries(personData(person))
    .filter(([k, v]) => (stored[k] ?? '') !== v)
    .map(([field, to]) => ({ field, from: stored[field] ?? null, to }));
}

/**
 * The contact a setup's person is: found by thirdpartyId, then by e-mail, or created in the default
 * portfolio. A found contact takes the setup's data — the CRM is the source, and the spec sends the
 * invitation to `customer.email` — and a thirdpartyId it lacks. In the caller's transaction.
 */
async function contactOf(
  tx: Tx,
  ctx: RequestContext,
  person: Person,
  now: Date,
  field: string,
): Promise<string> {
  const [match] = await matchContacts(tx, ctx, [person]);
  if (match) {
    const current = await contactById(tx, ctx, match._id, { forUpdate: true });
    if (!current) return match._id;
    const changes = dataChanges(current.data, person);
    const giveId =
      match.by === 'email' &&
      person.thirdpartyId !== undefined &&
      current.thirdpartyId === null &&
      !(await thirdpartyIdTaken(tx, ctx, person.thirdpartyId));
    if (changes.length > 0 || giveId) {
      await updateContact(
        tx,
        ctx,
        current,
        {
          thirdpartyId: giveId ? (person.thirdpartyId ?? null) : current.thirdpartyId,
          data: { ...current.data, ...personData(person) },
        },
        now,
      );
    }
    return match._id;
  }
  if (!person.email) {
    throw BadRequest.field(
      field,
      `no contact has thirdpartyId ${person.thirdpartyId} and there is no e-mail to create one`,
    );
  }
  const portfolio = await defaultPortfolio(tx, ctx);
  if (!portfolio)
    throw BadRequest.field(field, 'cannot create the contact: the organisation has no default portfolio');
  const row = await insertContact(
    tx,
    ctx,
    { portfolioId: portfolio.id, thirdpartyId: person.thirdpartyId ?? null, data: personData(person) },
    now,
  );
  return row.id;
}

function common(o: SendOptions): Omit<CreateSessionRequest, 'type'> {
  const reminders =
    o.reminder1Days !== undefined || o.reminder2Days !== undefined
      ? { reminderSchedule: { reminder1Days: o.reminder1Days, reminder2Days: o.reminder2Days } }
      : {};
  return {
    notificationEmail: { send: o.email },
    notificationSms: { send: o.sms },
    ...reminders,
    ...(o.language ? { language: o.language } : {}),
    ...(o.message ? { message: o.message } : {}),
    ...(o.expiresAt ? { expiresAt: o.expiresAt } : {}),
  };
}

/**
 * Quick-signing deep link (spec 4.10): makes the contact if needed and the quicksign action, and spends
 * the setup — one transaction, so a second send of the same setup (another tab) finds it used (410).
 */
export async function sendQuickSigning(
  deps: WizardDeps,
  ctx: RequestContext,
  setupId: string,
  options: SendOptions,
): Promise<string[]> {
  const ids = await inTenant(deps.database, ctx, async (tx) => {
    const now = deps.clock.now();
    const setups = setupRepository(tx, ctx);
    const row = usableSetup(
      await setups.find(setupId, { forUpdate: true }),
      'quicksign',
      now,
      'Quick-signing setup',
    );
    await checkOwner(tx, ctx, row, 'Quick-signing setup');
    const body = row.payload as unknown as QuickSigningSetupBody;
    const c = body.customer;
    const customerId = await contactOf(
      tx,
      ctx,
      { firstname: c.firstname, lastname: c.lastname, email: c.email, phone: c.gsm, thirdpartyId: c.guid },
      now,
      'customer',
    );
    const action = await createSessionRequestIn(deps, tx, ctx, {
      type: 'quicksign',
      customerId,
      document: { fileId: body.document.fileid, title: body.document.title, type: body.document.type },
      signatureLevel: options.signatureLevel ?? 'simple',
      ...common(options),
    });
    await setups.markUsed(row.id, now, [action._id]);
    return [action._id];
  });
  deps.jobs.wake();
  return ids;
}

export interface ActionChoice extends SendOptions {
  type: 'qlist' | 'multisigning';
  questionListIds: string[];
  /** multisigning with several contacts: one action they all sign (in the order given), not one each. */
  together: boolean;
  signingOrder?: 'parallel' | 'sequential';
}

/**
 * The action wizard: one action per contact, or one multisigning action with the contacts as signers.
 * From an action setup (spec 4.11: its contacts found or created, the setup spent) or from contacts the
 * adviser picked (`/sessionrequests/new`). One transaction: all the actions are made, or none.
 */
export async function sendActions(
  deps: WizardDeps,
  ctx: RequestContext,
  from: { setupId: string; include: number[] } | { contactIds: string[] },
  choice: ActionChoice,
): Promise<string[]> {
  if (choice.questionListIds.length === 0)
    throw BadRequest.field('questionListIds', 'choose at least one template');
  const ids = await inTenant(deps.database, ctx, async (tx) => {
    const now = deps.clock.now();
    let contactIds: string[];
    let spend: (() => Promise<void>) | null = null;
    if ('setupId' in from) {
      const setups = setupRepository(tx, ctx);
      const row = usableSetup(
        await setups.find(from.setupId, { forUpdate: true }),
        'action',
        now,
        'Action setup',
      );
      await checkOwner(tx, ctx, row, 'Action setup');
      const people = (row.payload as unknown as ActionSetupBody).customers;
      const chosen = [...new Set(from.include)]
        .filter((i) => i >= 0 && i < people.length)
        .sort((a, b) => a - b);
      if (chosen.length === 0) throw BadRequest.field('contacts', 'choose at least one contact');
      contactIds = [];
      for (const i of chosen) contactIds.push(await contactOf(tx, ctx, people[i]!, now, `customers[${i}]`));
      spend = () => setups.markUsed(row.id, now, made);
    } else {
      contactIds = [...new Set(from.contactIds)];
      if (contactIds.length === 0) throw BadRequest.field('contacts', 'choose at least one contact');
    }
    const made: string[] = [];
    if (choice.type === 'multisigning' && choice.together && contactIds.length > 1) {
      if (contactIds.length > 10) throw BadRequest.field('contacts', 'at most 10 signers sign one document');
      const action = await createSessionRequestIn(deps, tx, ctx, {
        type: 'multisigning',
        customerIds: contactIds,
        signingOrder: choice.signingOrder ?? 'parallel',
        questionListIds: choice.questionListIds,
        signatureLevel: choice.signatureLevel ?? 'simple',
        ...common(choice),
      });
      made.push(action._id);
    } else {
      for (const customerId of contactIds) {
        const action = await createSessionRequestIn(deps, tx, ctx, {
          type: choice.type,
          customerId,
          questionListIds: choice.questionListIds,
          ...(choice.type === 'multisigning' ? { signatureLevel: choice.signatureLevel ?? 'simple' } : {}),
          ...common(choice),
        });
        made.push(action._id);
      }
    }
    await spend?.();
    return made;
  });
  deps.jobs.wake();
  return ids;
}

/** The desk's quick-signing: a PDF uploaded on the desk, to the contacts picked, in their order. */
export interface DocumentChoice extends SendOptions {
  fileId: string;
  title: string;
  /** The signers, in signing order. */
  contactIds: string[];
  signingOrder: 'parallel' | 'sequential';
}

/** Sends a PDF uploaded on the desk for signing: one quicksign action its signers all sign. */
export async function sendDocument(
  deps: WizardDeps,
  ctx: RequestContext,
  c: DocumentChoice,
): Promise<string[]> {
  const contactIds = [...new Set(c.contactIds)];
  if (contactIds.length === 0) throw BadRequest.field('contacts', 'choose at least one contact');
  if (contactIds.length > 10) throw BadRequest.field('contacts', 'at most 10 signers sign one document');
  const ids = await inTenant(deps.database, ctx, async (tx) => {
    const action = await createSessionRequestIn(deps, tx, ctx, {
      type: 'quicksign',
      ...(contactIds.length === 1
        ? { customerId: contactIds[0]! }
        : { customerIds: contactIds, signingOrder: c.signingOrder }),
      document: { fileId: c.fileId, title: c.title },
      signatureLevel: c.signatureLevel ?? 'simple',
      ...common(c),
    });
    return [action._id];
  });
  deps.jobs.wake();
  return ids;
}

/** The first page of a file of the organisation as a PNG (the wizard's preview); null when it cannot be drawn. */
export async function filePage(
  deps: WizardDeps & { previews: DocumentPreviews },
  ctx: RequestContext,
  fileId: string,
  page: number,
): Promise<Buffer | null> {
  const file = await inTenant(deps.database, ctx, (tx) => fileById(tx, ctx, fileId));
  if (file?.contentType !== 'application/pdf') throw new NotFound('File not found');
  const facts = await deps.previews.factsOf(file);
  if (page < 1 || page > facts.pages.length) throw new NotFound('No such page');
  return deps.previews.image(file, page);
}

/** A PDF of the organisation as the desk's document step shows it; null when there is none such. */
export async function uploadedPdf(
  deps: WizardDeps & { previews: DocumentPreviews },
  ctx: RequestContext,
  fileId: string,
): Promise<{ id: string; fileName: string; size: number; pages: number; images: boolean } | null> {
  const file = await inTenant(deps.database, ctx, (tx) => fileById(tx, ctx, fileId));
  if (file?.contentType !== 'application/pdf') return null;
  const facts = await deps.previews.factsOf(file);
  return {
    id: file.id,
    fileName: file.fileName,
    size: file.size,
    pages: facts.pages.length,
    images: facts.images,
  };
}

/** How many pages a file of the organisation has, and whether they can be drawn. */
export async function filePages(
  deps: WizardDeps & { previews: DocumentPreviews },
  ctx: RequestContext,
  fileId: string,
): Promise<{ pages: number; images: boolean }> {
  const file = await inTenant(deps.database, ctx, (tx) => fileById(tx, ctx, fileId));
  if (!file) return { pages: 0, images: false };
  const facts = await deps.previews.factsOf(file);
  return { pages: facts.pages.length, images: facts.images };
}

/** The actions just made, for the page that says they were sent. */
export async function sentActions(deps: WizardDeps, ctx: RequestContext, ids: string[]) {
  return inTenant(deps.database, ctx, async (tx) => {
    const out: { id: string; type: string; code: string }[] = [];
    for (const id of ids.slice(0, 50)) {
      const row = await actionById(tx, ctx, id);
      if (row) out.push({ id: row.id, type: row.type, code: row.code });
    }
    return out;
  });
}
