// npm run bench:signing — the CPU work of signing, in this process, without a database:
//   1. making a signed document (original pages + signature page + audit trail, one incremental PDF
//      signature per signer) from a 2-page and a 30-page PDF, with 1 and 3 signers;
//   2. verifying it (GET /files/{id}/verification's check);
//   3. drawing one page for the signing step with poppler (pdftoppm), when it is installed.
// Each figure is the median of BENCH_ROUNDS runs (default 15), after one warm-up run.
import type { SignerTrailEntry } from '../src/db/schema';
import { buildSignedDocument } from '../src/modules/signing/signed-document';
import { certificateFacts, generateSealKey } from '../src/platform/signing/certificate';
import { renderPage } from '../src/platform/signing/pdf';
import { BASIC_PROFILE } from '../src/platform/signing/seal';
import { verifyPdfSignatures } from '../src/platform/signing/verify';
import { printTable } from './bench-support';
import { samplePdf } from './support/sample-pdf';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

async function median(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function main(): Promise<void> {
  const key = generateSealKey('ActionDesk bench seal', new Date());
  const seal = { key, certificate: certificateFacts(key) };
  const at = new Date('2026-03-02T09:00:00Z');
  const trail: SignerTrailEntry[] = ['opened', 'code-sent', 'code-verified', 'signed'].map((step) => ({
    step: step as SignerTrailEntry['step'],
    at: at.toISOString(),
    ip: '203.0.113.7',
  }));
  const signer = (name: string) => ({
    name,
    email: 'signer@example.test',
    phone: null,
    codeChannel: 'email' as const,
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (bench)',
    consent: 'I have read “Contract” and sign it electronically.',
    signature: { kind: 'typed' as const, text: name },
    signedAt: at,
    trail,
  });
  const rows: string[][] = [];
  for (const pages of [2, 30]) {
    const original = await samplePdf(pages);
    for (const count of [1, 3]) {
      const signers = ['Łukasz Żółć', 'Ελένη Παπαδοπούλου', 'Дмитрий Иванов'].slice(0, count).map(signer);
      const input = {
        original,
        title: 'Contract',
        organisation: 'Kantoor Peeters',
        actionId: 'bench',
        language: 'en' as const,
        timeZone: 'Europe/Brussels',
        signers,
        seal,
        pades: BASIC_PROFILE,
        now: at,
      };
      const signed = await buildSignedDocument(input);
      const make = await median(() => buildSignedDocument(input));
      const verify = await median(async () => verifyPdfSignatures(signed));
      if (!(await verifyPdfSignatures(signed)).valid) throw new Error('the signed document does not verify');
      rows.push([
        String(pages),
        String(count),
        (signed.length / 1024).toFixed(0),
        make.toFixed(0),
        verify.toFixed(1),
      ]);
    }
  }
  console.log(`Signing on ${process.version}, median of ${ROUNDS} runs`);
  printTable(['pages', 'signers', 'signed KiB', 'make + seal ms', 'verify ms'], rows);
  try {
    const original = await samplePdf(2);
    const draw = await median(() => renderPage(original, 1));
    console.log(`\nOne page drawn for the signing step (pdftoppm, 1100 px wide): ${draw.toFixed(0)} ms`);
  } catch (err) {
    console.log(`\nPage drawing not measured: ${(err as Error).message}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
