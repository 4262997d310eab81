import type { Language } from '../../db/schema';
import type { Tx } from '../../platform/db/database';
import type { FileStorage } from '../../platform/files/storage';
import { invalid } from '../../platform/http/validation';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, type FieldError } from '../../platform/kernel/errors';
import { smsNumber } from '../../platform/outbound/phone';
import { contactEmail, contactPhone } from '../customers';
import { lockSignableFile } from '../files';
import { sharedLanguages } from '../questionlists';
import { isSigningType } from './sessionrequests.lifecycle';
import type { TemplateFacts } from './sessionrequests.repository';
import type { CreateSessionRequest } from './sessionrequests.schemas';
import type { Channels } from './sessionrequests.view';

/**
 * The problems of one request, gathered so that one 400 names them all. A field keeps its first
 * problem: the later ones follow from it (a qlist's `customerIds` that also repeats `customerId`).
 */
export class Problems {
  readonly #found: FieldError[] = [];

  add(field: string, message: string): void {
    if (!this.#found.some((p) => p.field === field)) this.#found.push({ field, in: 'body', message });
  }

  get any(): boolean {
    return this.#found.length > 0;
  }

  /** The 400: one problem reads as `field: message`, several as every validation 400 does. */
  error(): BadRequest {
    const [first, ...more] = this.#found;
    if (first && more.length === 0) return BadRequest.field(first.field, first.message);
    return invalid('body', this.#found);
  }

  throwIfAny(): void {
    if (this.any) throw this.error();
  }
}

/**
 * The rules that need no database: which fields each type takes, reminders, expiry, the signature level
 * the service can give. Every problem is added, none stops the others.
 */
export function checkShape(
  input: CreateSessionRequest,
  channels: Channels,
  now: Date,
  qualifiedSigning: boolean,
  problems: Problems,
): void {
  const lists = input.questionListIds ?? [];
  const signing = isSigningType(input.type);
  if (input.customerIds !== undefined) {
    if (!signing)
      problems.add(
        'customerIds',
        'several contacts sign only in signing actions (quicksign, multisigning): use customerId',
      );
    if (input.customerId !== undefined)
      problems.add('customerIds', 'give customerId (one contact) or customerIds, not both');
    repeats(input.customerIds, 'customerIds', 'repeats a contact', problems);
  }
  if (input.signingOrder !== undefined && !signing)
    problems.add('signingOrder', 'is only for signing actions (quicksign, multisigning)');
  if (input.type === 'campaign') {
    if (input.customerId !== undefined)
      problems.add('customerId', 'a campaign link is not bound to a contact: leave customerId out');
    if (channels.email)
      problems.add('notificationEmail.send', 'a campaign has no contact to invite: share its url instead');
    if (channels.sms)
      problems.add('notificationSms.send', 'a campaign has no contact to invite: share its url instead');
  } else if (input.customerId === undefined && input.customerIds === undefined) {
    problems.add('customerId', `is required for a ${input.type} action`);
  }
  if (input.portfolioId !== undefined && input.type !== 'campaign')
    problems.add('portfolioId', 'is only for campaigns (where visitors become contacts)');
  if (input.signatureLevel !== undefined && !signing)
    problems.add('signatureLevel', 'is only for signing actions (quicksign, multisigning)');
  if (input.signatureLevel === 'qualified' && !qualifiedSigning)
    problems.add(
      'signatureLevel',
      'qualified signatures need a qualified trust service, and none is configured (QUALIFIED_SIGNING_PROVIDER): ask for simple, or see docs/signing.md',
    );
  if (input.type === 'quicksign') {
    if (lists.length > 0)
      problems.add('questionListIds', 'a quicksign action has no questionnaire: leave it out');
    if (!input.document) problems.add('document', 'is required for a quicksign action');
  } else {
    if (lists.length === 0) problems.add('questionListIds', `needs at least one template for ${input.type}`);
    if (input.document) problems.add('document', 'is only for quicksign actions');
    repeats(lists, 'questionListIds', 'repeats a template', problems);
  }
  checkReminders(input, channels, problems);
  checkExpiry(input.expiresAt, now, problems);
}

function repeats(ids: readonly string[], field: string, message: string, problems: Problems): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) problems.add(`${field}[${i}]`, message);
    seen.add(id);
  });
}

export function checkExpiry(expiresAt: string | undefined, now: Date, problems: Problems): void {
  if (expiresAt !== undefined && new Date(expiresAt) <= now)
    problems.add('expiresAt', 'must be in the future');
}

export function checkReminders(
  input: { reminderSchedule?: CreateSessionRequest['reminderSchedule'] },
  channels: Channels,
  problems: Problems,
): void {
  const r = input.reminderSchedule;
  if (
    r &&
    (r.reminder1Days !== undefined || r.reminder2Days !== undefined) &&
    !channels.email &&
    !channels.sms
  )
    problems.add(
      'reminderSchedule',
      'reminders are sent by the invitation’s channels: set notificationEmail.send or notificationSms.send',
    );
}

/**
 * The contact must exist and be reachable on every channel asked for. Its phone number is stored as
 * written; here, where an SMS will go to it, it must read as a number that takes SMS.
 */
export function checkReachable(
  customer: Record<string, string> | null | undefined,
  channels: Channels,
  phoneRegion: string,
  problems: Problems,
): void {
  if (!customer) {
    problems.add('customerId', 'is not a contact of this organisation');
    return;
  }
  if (channels.email && !contactEmail(customer))
    problems.add('notificationEmail.send', 'the contact has no e-mail address (data.Email)');
  if (!channels.sms) return;
  const phone = contactPhone(customer);
  const sms = phone ? smsNumber(phone, phoneRegion) : null;
  if (!sms) problems.add('notificationSms.send', 'the contact has no phone number (data.Telefoon)');
  else if ('problem' in sms)
    problems.add('notificationSms.send', `the contact’s phone number (data.Telefoon) ${sms.problem}`);
}

/**
 * A signer must be a contact of the organisation, reachable on the invitation's channels, and able to
 * receive the one-time code (an e-mail address or a mobile number).
 */
export function checkSigner(
  customer: Record<string, string> | null | undefined,
  channels: Channels,
  phoneRegion: string,
  field: string,
  problems: Problems,
): void {
  if (!customer) {
    problems.add(field, 'is not a contact of this organisation');
    return;
  }
  const email = Boolean(contactEmail(customer));
  const phone = contactPhone(customer);
  const sms = phone ? smsNumber(phone, phoneRegion) : null;
  if (channels.email && !email)
    problems.add(field, 'has no e-mail address (data.Email) for the e-mail invitation');
  if (channels.sms && !(sms && 'number' in sms))
    problems.add(field, 'has no mobile number (data.Telefoon) for the SMS invitation');
  if (!email && !(sms && 'number' in sms))
    problems.add(
      field,
      'has neither an e-mail address (data.Email) nor a mobile number (data.Telefoon) to receive the one-time code for signing',
    );
}

/**
 * A quicksign document must be a PDF file of the organisation. Its record stays share-locked until the
 * action commits, so the file cannot be deleted in between (a delete then sees the action and refuses).
 */
export async function checkDocument(
  storage: FileStorage,
  tx: Tx,
  ctx: RequestContext,
  fileId: string,
  problems: Problems,
): Promise<void> {
  const { problem } = await lockSignableFile(tx, ctx, storage, fileId);
  if (problem) problems.add('document.fileId', problem);
}

/**
 * Every template named must be an active template of the organisation; returns them in the order asked,
 * or null when one is not.
 */
export function checkTemplates(
  ids: string[],
  found: TemplateFacts[],
  problems: Problems,
): TemplateFacts[] | null {
  const byId = new Map(found.map((t) => [t.id, t]));
  const templates: TemplateFacts[] = [];
  ids.forEach((id, i) => {
    const t = byId.get(id);
    if (!t) problems.add(`questionListIds[${i}]`, 'is not a question list of this organisation');
    else if (!t.active) problems.add(`questionListIds[${i}]`, 'is not an active question list');
    else templates.push(t);
  });
  return templates.length === ids.length ? templates : null;
}

/** The language asked for, which every template must support, or the first they share; null if none. */
export function chooseLanguage(
  asked: Language | undefined,
  templates: { supportedLanguages: string[] }[],
  problems: Problems,
): Language | null {
  const common = sharedLanguages(templates);
  if (asked !== undefined) {
    if (common.includes(asked)) return asked;
    problems.add(
      'language',
      `is not supported by every template (they share: ${common.join(', ') || 'none'})`,
    );
    return null;
  }
  const language = common[0];
  if (!language) problems.add('language', 'the templates have no language in common');
  return language ?? null;
}
