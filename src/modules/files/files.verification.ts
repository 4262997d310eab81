import { inTenant } from '../../platform/db/tenant';
import { readAll } from '../../platform/files/storage';
import type { IncomingFile } from '../../platform/http/multipart';
import type { RequestContext } from '../../platform/kernel/context';
import { BadRequest, NotFound } from '../../platform/kernel/errors';
import { testSealFingerprint } from '../../platform/signing/seal-key';
import { TooManySignatures, verifyPdfSignatures } from '../../platform/signing/verify';
import { organisationSealFingerprint } from '../organisations';
import { fileRepository } from './files.repository';
import type { Verification } from './files.schemas';
import { type FileDeps, notFound, PDF_MAGIC } from './files.service';

// What a PDF's signatures prove (GET /files/{id}/verification, POST /files/verify).

/** The signatures of a PDF, checked (platform/signing/verify), with which certificate is this service's. */
async function verificationOf(
  deps: FileDeps,
  ctx: RequestContext,
  pdf: Buffer,
  field: string,
): Promise<Verification> {
  let report: Awaited<ReturnType<typeof verifyPdfSignatures>>;
  try {
    report = await verifyPdfSignatures(pdf);
  } catch (err) {
    if (err instanceof TooManySignatures)
      throw BadRequest.field(field, err.message, field === 'fileId' ? 'path' : 'body');
    throw err;
  }
  const service = deps.seal ? (await deps.seal()).certificate.fingerprint : null;
  const own = await inTenant(deps.database, ctx, (tx) => organisationSealFingerprint(tx, ctx));
  const ours = (fingerprint: string) => fingerprint === service || fingerprint === own;
  const test = await testSealFingerprint(deps.database);
  return {
    ...report,
    // A document sealed with test mode's seal proves nothing, whatever else it holds.
    livemode: test === null || !report.signatures.some((s) => s.certificate?.fingerprint === test),
    signatures: report.signatures.map((s) => ({
      ...s,
      certificate: s.certificate && {
        ...s.certificate,
        thisService: ours(s.certificate.fingerprint) || (test !== null && s.certificate.fingerprint === test),
        testSeal: test !== null && s.certificate.fingerprint === test,
      },
    })),
  };
}

/** Verifies the signatures of a PDF of the organisation. */
export async function verifyFile(deps: FileDeps, ctx: RequestContext, id: string): Promise<Verification> {
  const file = await inTenant(deps.database, ctx, (tx) => fileRepository(tx, ctx).find(id));
  if (!file) throw notFound();
  if (file.contentType !== 'application/pdf') throw BadRequest.field('fileId', 'is not a PDF', 'path');
  return verificationOf(deps, ctx, await readAll(deps.storage, file.storageKey), 'fileId');
}

/** Verifies the signatures of a PDF a client sends (kept in memory only, never stored). */
export async function verifyUpload(
  deps: FileDeps,
  ctx: RequestContext,
  upload: IncomingFile,
): Promise<Verification> {
  const chunks: Buffer[] = [];
  for await (const chunk of upload.stream) chunks.push(chunk as Buffer);
  const pdf = Buffer.concat(chunks);
  if (!pdf.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC))
    throw BadRequest.field('file', 'is not a PDF (it does not start with %PDF-)');
  return verificationOf(deps, ctx, pdf, 'file');
}
