// Creating an action: the checks on the request and on the stored records it names, then the action,
// its signers, invitations and events, in one transaction.
import type { Language } from '../../db/schema';
import { newActionCode } from '../../platform/crypto/codes';
import type { Tx } from '../../platform/db/database';
import { inTenantOpening } from '../../platform/db/tenant';
import type { RequestContext } from '../../platform/kernel/context';
import { newId } from '../../platform/kernel/ids';
import { iso } from '../../platform/kernel/schemas';
import { contactById } from '../customers';
import { filePagesJob } from '../files';
import { portfolioById } from '../portfolios';
import {
  checkDocument,
  checkReachable,
  checkShape,
  checkSigner,
  checkTemplates,
  chooseLanguage,
  Problems,
} from './sessionrequests.checks';
import { isSigningType } from './sessionrequests.lifecycle';
import {
  actorOf,
  type Prerequisites,
  prerequisitesOf,
  prerequisitesStatement,
  sessionRequestRepository,
  type TemplateFacts,
} from './sessionrequests.repository';
import type { CreateSessionRequest, SessionRequestDetail } from './sessionrequests.schemas';
import type { SessionRequestDeps } from './sessionrequests.service';
import { recordActionEvents } from './sessionrequests.transitions';
import {
  type Channels,
  channelsOf,
  expiryJob,
  NOTIFICATION_JOB,
  notificationJobs,
  pendingNotification,
  toDetail,
  toSessionRequest,
} from './sessionrequests.view';
import { inviteSigners } from './signers.invitations';
import { type NewSigner, signerRepository } from './signers.repository';

/** The contacts who sign a signing action, in order: customerIds, or customerId alone. */
function signerIdsOf(input: CreateSessionRequest): string[] {
  return input.customerIds ?? (input.customerId !== undefined ? [input.customerId] : []);
}

/** The rules the request alone decides (which fields each type takes, …): every problem in one 400. */
function checkRequest(
  deps: SessionRequestDeps,
  input: CreateSessionRequest,
  channels: Channels,
  now: Date,
): void {
  const problems = new Problems();
  checkShape(input, channels, now, deps.qualifiedSigning, problems);
  problems.throwIfAny();
}

/**
 * The rules that read stored records (the contacts, the portfolio, the document, the templates): every
 * problem in one 400. Returns the templates in the order asked and the action's language.
 */
async function checkStored(
  deps: SessionRequestDeps,
  tx: Tx,
  ctx: RequestContext,
  input: CreateSessionRequest,
  channels: Channels,
  signerIds: string[],
  customerId: string | null,
  read?: Prerequisites,
): Promise<{ templates: TemplateFacts[]; language: Language }> {
  const problems = new Problems();
  const found =
    read ?? (await sessionRequestRepository(tx, ctx).prerequisites(customerId, input.questionListIds ?? []));
  if (customerId !== null) checkReachable(found.customer, channels, deps.phoneRegion, problems);
  // The first signer is the action's contact: a problem with it is named once, just above.
  const contactNamed = problems.any;
  for (const [i, signerId] of signerIds.entries()) {
    if (i === 0 && contactNamed) continue;
    const field = input.customerIds ? `customerIds[${i}]` : 'customerId';
    const data = i === 0 ? found.customer : (await contactById(tx, ctx, signerId))?.data;
    checkSigner(data, channels, deps.phoneRegion, field, problems);
  }
  if (input.portfolioId !== undefined && !(await portfolioById(tx, ctx, input.portfolioId)))
    problems.add('portfolioId', 'is not a portfolio of this organisation');
  if (input.document) await checkDocument(deps.storage, tx, ctx, input.document.fileId, problems);
  const templates = checkTemplates(input.questionListIds ?? [], found.templates, problems);
  const language = templates && chooseLanguage(input.language, templates, problems);
  if (!templates || !language || problems.any) throw problems.error();
  return { templates, language };
}

/**
 * The signers of a new signing action, in order. The first signer signs on the action's own link; each
 * other signer has a link of their own.
 */
function newSigners(signerIds: string[], sessionRequestId: string, code: string, now: Date): NewSigner[] {
  return signerIds.map((signerId, position) => ({
    id: newId(now.getTime()),
    sessionRequestId,
    customerId: signerId,
    position,
    code: position === 0 ? code : newActionCode(),
    status: 'pending',
    invitedAt: null,
    openedAt: null,
    codeHash: null,
    codeExpiresAt: null,
    codeChannel: null,
    codeSentAt: null,
    codeVerifiedAt: null,
    browserHash: null,
    browserUntil: null,
    signedAt: null,
    declinedAt: null,
    declineReason: null,
    signature: null,
    evidence: null,
    createdAt: now,
    updatedAt: now,
  }));
}

/** Whether the action is signed, the contacts who sign (in order), and the action's contact. */
function partiesOf(input: CreateSessionRequest) {
  const signing = isSigningType(input.type);
  const signerIds = signing ? signerIdsOf(input) : [];
  return { signing, signerIds, customerId: signing ? (signerIds[0] ?? null) : (input.customerId ?? null) };
}

/**
 * Creates an action; when an invitation is asked for it is queued in the same transaction and the action
 * is sent. What the checks read goes with the transaction's opening (one round trip fewer).
 */
export async function createSessionRequest(
  deps: SessionRequestDeps,
  ctx: RequestContext,
  input: CreateSessionRequest,
): Promise<SessionRequestDetail> {
  checkRequest(deps, input, channelsOf(input), deps.clock.now());
  const opening = prerequisitesStatement(ctx, partiesOf(input).customerId, input.questionListIds ?? []);
  const detail = await inTenantOpening(deps.database, ctx, opening, (tx, rows) =>
    createSessionRequestIn(deps, tx, ctx, input, prerequisitesOf(rows)),
  );
  deps.jobs.wake();
  return detail;
}

/**
 * Creates an action inside the caller's transaction (the wizard makes its contacts, its actions and
 * spends its setup in one): the same checks and writes as `createSessionRequest`. The caller wakes the
 * job worker after committing. `read`: the prerequisites, when they were read with the transaction's
 * opening.
 */
export async function createSessionRequestIn(
  deps: SessionRequestDeps,
  tx: Tx,
  ctx: RequestContext,
  input: CreateSessionRequest,
  read?: Prerequisites,
): Promise<SessionRequestDetail> {
  const now = deps.clock.now();
  const channels = channelsOf(input);
  checkRequest(deps, input, channels, now);
  const repo = sessionRequestRepository(tx, ctx);
  const { signing, signerIds, customerId } = partiesOf(input);
  const { templates, language } = await checkStored(
    deps,
    tx,
    ctx,
    input,
    channels,
    signerIds,
    customerId,
    read,
  );
  const invited = channels.email || channels.sms;
  const id = newId(now.getTime());
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  const code = newActionCode();
  // A signing action's invitations go to its signers (inviteSigners, below). Its document's pages are
  // drawn ahead, for the first signer not to wait for them.
  const jobs = [
    ...(signing ? [] : notificationJobs(id, channels, 'invitation', input.reminderSchedule, now)),
    ...(expiresAt ? [expiryJob(id, expiresAt)] : []),
    ...(input.document
      ? [filePagesJob.job({ subjectId: id, payload: { fileId: input.document.fileId }, runAt: now })]
      : []),
  ];
  const row = await repo.create(
    {
      id,
      code,
      type: input.type,
      status: invited ? 'sent' : 'created',
      customerId,
      portfolioId: input.portfolioId ?? null,
      questionListIds: templates.map((t) => t.id),
      questionListVersions: templates.map((t) => t.version),
      document: input.document ?? null,
      signatureLevel: signing ? (input.signatureLevel ?? 'simple') : null,
      signingOrder: signing ? (input.signingOrder ?? 'parallel') : null,
      language,
      message: input.message ?? null,
      expiresAt,
      notifyEmail: channels.email,
      notifySms: channels.sms,
      reminder1Days: input.reminderSchedule?.reminder1Days ?? null,
      reminder2Days: input.reminderSchedule?.reminder2Days ?? null,
      createdBy: ctx.userId,
      createdAt: now,
      updatedAt: now,
      sentAt: invited ? now : null,
      openedAt: null,
      completedAt: null,
      closedAt: null,
      draft: {},
    },
    actorOf(ctx),
    jobs,
  );
  const signers = newSigners(signerIds, id, code, now);
  await signerRepository(tx, ctx).insert(signers);
  const invitations = signing
    ? await inviteSigners(deps, tx, ctx, row, 'created')
    : { invited: [], jobs: [] };
  const invitedIds = new Set(invitations.invited.map((s) => s.id));
  await recordActionEvents(deps, tx, ctx, id, [
    'sessionrequest.created',
    ...(invited ? (['sessionrequest.sent'] as const) : []),
  ]);
  return toDetail(
    toSessionRequest(
      row,
      signers.map((g) => ({ ...g, invitedAt: invitedIds.has(g.id) ? now : null })),
      deps.baseUrl,
    ),
    [...jobs, ...invitations.jobs].filter((j) => j.kind === NOTIFICATION_JOB).map(pendingNotification),
    [{ from: null, to: row.status, at: iso(now), ...actorOf(ctx) }],
  );
}
