import type forge from 'node-forge';
import type { SealRefusal } from '../../i18n/desk-seal';
import type { SecretBox } from '../../platform/crypto/sealed';
import type { Database, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import { jobRepository } from '../../platform/jobs/jobs.repository';
import type { Clock } from '../../platform/kernel/clock';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, NotFound } from '../../platform/kernel/errors';
import { newId } from '../../platform/kernel/ids';
import {
  type CertificateFacts,
  derOf,
  factsOf,
  type Pkcs12Contents,
  readPkcs12,
  type SealKey,
} from '../../platform/signing/certificate';
import { atLeast, type PadesLevel } from '../../platform/signing/pades';
import { PKCS12_OPEN_LIMIT_MS, pkcs12OpenTime } from '../../platform/signing/pkcs12-guard';
import { uncheckableCertificates } from '../../platform/signing/revocation';
import type { PadesProfile } from '../../platform/signing/seal';
import type { LoadedSealKey, SealKeySource } from '../../platform/signing/seal-key';
import { type OrganisationSealRow, organisationSealRepository } from './seal.repository';
import type { OrganisationSeal, UploadSeal } from './seal.schemas';
import { sealExpiryJob } from './seal-expiry.job';

export interface SealDeps {
  database: Database;
  clock: Clock;
  box: SecretBox;
  seal: SealKeySource;
  /** The level documents are sealed at: from B-LT an uploaded seal must say where to check it. */
  pades: Pick<PadesProfile, 'level'>;
}

/** A PKCS#12 file with a key and a short chain is a few kilobytes; a larger one is refused. */
export const SEAL_MAX_BYTES = 64 * 1024;
/** Administrators are warned this long before their seal expires. */
export const SEAL_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;
const CLOCK_SKEW_MS = 5 * 60_000;

const sealContext = (organisationId: string) => `organisation-seal:${organisationId}`;

function view(
  source: 'organisation' | 'service',
  certificate: CertificateFacts,
  uploadedAt: Date | null,
  now: Date,
  ownSealExpiredAt: Date | null = null,
): OrganisationSeal {
  return {
    source,
    certificate: {
      ...certificate,
      notBefore: certificate.notBefore.toISOString(),
      notAfter: certificate.notAfter.toISOString(),
    },
    uploadedAt: uploadedAt?.toISOString() ?? null,
    ownSealExpiredAt: ownSealExpiredAt?.toISOString() ?? null,
    expiresInDays: Math.floor((certificate.notAfter.getTime() - now.getTime()) / DAY_MS),
  };
}

const rowFacts = (row: OrganisationSealRow): CertificateFacts => ({
  subject: row.subject,
  issuer: row.issuer,
  serialNumber: row.serialNumber,
  notBefore: row.notBefore,
  notAfter: row.notAfter,
  fingerprint: row.fingerprint,
});

/**
 * The seal the organisation's live documents are sealed with: its own while it is valid, else the
 * service's (then saying when its own expired, if it had one).
 */
export async function getOrganisationSeal(deps: SealDeps, ctx: RequestContext): Promise<OrganisationSeal> {
  const row = await inTenant(deps.database, ctx, (tx) => organisationSealRepository(tx, ctx).find());
  const now = deps.clock.now();
  if (row && row.notAfter > now) return view('organisation', rowFacts(row), row.createdAt, now);
  return view('service', (await deps.seal('live')).certificate, null, now, row?.notAfter ?? null);
}

/** A refused seal upload: a 400 naming the field (`pkcs12` or `password`), with the reason. */
export class SealRefused extends BadRequest {
  constructor(
    readonly reason: SealRefusal,
    readonly field: 'pkcs12' | 'password',
    message: string,
  ) {
    super(`${field}: ${message}`, [{ field, in: 'body', message }]);
  }
}

/**
 * Checks an uploaded PKCS#12 file before it is kept: it opens with the password, holds an RSA key and
 * the certificate that goes with it, the certificate is valid now and may sign documents. Each refusal
 * is a 400 naming the field and the reason.
 */
async function checkedSeal(
  input: UploadSeal,
  now: Date,
  level: PadesLevel,
): Promise<{ key: SealKey; facts: CertificateFacts }> {
  const p12 = Buffer.from(input.pkcs12, 'base64');
  if (
    p12.length === 0 ||
    p12.toString('base64').replace(/=+$/, '') !== input.pkcs12.replace(/\s+/g, '').replace(/=+$/, '')
  )
    throw new SealRefused('notBase64', 'pkcs12', 'must be the PKCS#12 file in base64');
  if (p12.length > SEAL_MAX_BYTES)
    throw new SealRefused('tooLarge', 'pkcs12', `must be at most ${SEAL_MAX_BYTES / 1024} KB`);
  const key = { p12, passphrase: input.password };
  if ((await pkcs12OpenTime(p12, input.password)) === 'too slow')
    throw new SealRefused(
      'tooSlow',
      'pkcs12',
      `takes longer than ${PKCS12_OPEN_LIMIT_MS / 1000} s to open: its key derivation asks for more rounds than a seal needs`,
    );
  let contents: Pkcs12Contents;
  try {
    contents = readPkcs12(key);
  } catch (err) {
    const message = (err as Error).message;
    if (message.startsWith('the PKCS#12 file holds no'))
      throw new SealRefused(
        'noKey',
        'pkcs12',
        `must hold an RSA private key and its certificate (${message})`,
      );
    if (/password|MAC/i.test(message))
      throw new SealRefused('wrongPassword', 'password', 'does not open the PKCS#12 file');
    throw new SealRefused('notPkcs12', 'pkcs12', 'is not a PKCS#12 file');
  }
  const facts = factsOf(contents.certificate);
  if (facts.notAfter <= now)
    throw new SealRefused('expired', 'pkcs12', `its certificate expired on ${facts.notAfter.toISOString()}`);
  // A certificate issued minutes ago by an authority whose clock runs ahead is not refused.
  if (facts.notBefore.getTime() > now.getTime() + CLOCK_SKEW_MS)
    throw new SealRefused(
      'notYetValid',
      'pkcs12',
      `its certificate is valid only from ${facts.notBefore.toISOString()}`,
    );
  if (!maySign(contents.certificate))
    throw new SealRefused('mayNotSign', 'pkcs12', 'its certificate’s key usage does not allow signing');
  if (atLeast(level, 'B-LT')) {
    const uncheckable = await uncheckableCertificates([contents.certificate, ...contents.chain].map(derOf));
    if (uncheckable.length > 0)
      throw new SealRefused(
        'noRevocation',
        'pkcs12',
        `documents are sealed at PAdES ${level}, which needs each certificate’s revocation status, and there is no way to check it for ${uncheckable.join(', ')} (no CRL, and no OCSP responder with its issuer’s certificate in the file): include the chain up to the authority`,
      );
  }
  return { key, facts };
}

/** A certificate without a key usage may sign; one with it needs digitalSignature or nonRepudiation. */
function maySign(certificate: forge.pki.Certificate): boolean {
  const usage = certificate.getExtension('keyUsage') as
    | { digitalSignature?: boolean; nonRepudiation?: boolean }
    | undefined;
  return !usage || Boolean(usage.digitalSignature || usage.nonRepudiation);
}

/**
 * Sets the organisation's own seal, replacing any other (live mode only: the route says so). Kept sealed
 * with ENCRYPTION_KEYS; the table's audit trigger records it (without the sealed columns); the expiry
 * warning is planned for 30 days before it expires, in the same transaction.
 */
export async function setOrganisationSeal(
  deps: SealDeps,
  ctx: RequestContext,
  input: UploadSeal,
): Promise<OrganisationSeal> {
  const now = deps.clock.now();
  const { key, facts } = await checkedSeal(input, now, deps.pades.level);
  const context = sealContext(ctx.organisationId);
  await inTenant(deps.database, ctx, async (tx) => {
    await organisationSealRepository(tx, ctx).put({
      id: newId(now.getTime()),
      sealedP12: deps.box.seal(key.p12.toString('base64'), context),
      sealedPassphrase: deps.box.seal(key.passphrase, context),
      subject: facts.subject,
      issuer: facts.issuer,
      serialNumber: facts.serialNumber,
      fingerprint: facts.fingerprint,
      notBefore: facts.notBefore,
      notAfter: facts.notAfter,
      createdAt: now,
    });
    await planExpiryWarning(tx, ctx, facts, now);
  });
  return view('organisation', facts, now, now);
}

async function planExpiryWarning(tx: Tx, ctx: RequestContext, facts: CertificateFacts | null, now: Date) {
  const jobs = jobRepository(tx, ctx);
  await jobs.cancelPending(ctx.organisationId, [sealExpiryJob.kind], 'the seal was replaced or removed', now);
  if (!facts) return;
  const warnAt = new Date(Math.max(now.getTime(), facts.notAfter.getTime() - SEAL_WARNING_DAYS * DAY_MS));
  await jobs.enqueue(
    [
      sealExpiryJob.job({
        subjectId: ctx.organisationId,
        payload: { fingerprint: facts.fingerprint },
        runAt: warnAt,
      }),
    ],
    now,
  );
}

/** Removes the organisation's own seal: documents are sealed with the service's again. 404 if none. */
export async function removeOrganisationSeal(deps: SealDeps, ctx: RequestContext): Promise<void> {
  await inTenant(deps.database, ctx, async (tx) => {
    if (!(await organisationSealRepository(tx, ctx).remove()))
      throw new NotFound('The organisation has no seal of its own');
    await planExpiryWarning(tx, ctx, null, deps.clock.now());
  });
}

/**
 * The organisation's own seal, opened, for sealing a live document at `now`; null when it has none or
 * it has expired (then the service's seal is used: the administrators were warned 30 days before).
 */
export async function organisationSealKey(
  tx: Tx,
  ctx: RequestContext,
  box: SecretBox,
  now: Date,
): Promise<LoadedSealKey | null> {
  const row = await organisationSealRepository(tx, ctx).find();
  if (!row || row.notAfter <= now) return null;
  const context = sealContext(ctx.organisationId);
  const key = {
    p12: Buffer.from(box.open(row.sealedP12, context), 'base64'),
    passphrase: box.open(row.sealedPassphrase, context),
  };
  return { key, certificate: rowFacts(row), source: 'organisation' };
}

/** The fingerprint of the organisation's own seal, if it has one (what verification compares with). */
export async function organisationSealFingerprint(tx: Tx, ctx: RequestContext): Promise<string | null> {
  return (await organisationSealRepository(tx, ctx).find())?.fingerprint ?? null;
}
