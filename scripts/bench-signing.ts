// npm run bench:signing — the CPU work of signing, in this process, without a database:
//   1. making a signed document (original pages + signature page + audit trail, one incremental PDF
//      signature per signer) from a 2-page and a 30-page PDF, with 1 and 3 signers;
//   2. verifying it (GET /files/{id}/verification's check);
//   3. drawing one page for the signing step with poppler (pdftoppm), when it is installed;
//   4. sealing at each PAdES level (docs/signing.md#pades-levels) with a CA-issued seal, against a local
//      time-stamping authority, OCSP responder and CRL (OpenSSL's `ts` and `ocsp` behind HTTP on
//      127.0.0.1): the whole seal, and the same with the round trips taken out (what the authorities cost
//      beyond them is ours to make fast).
// Each figure is the median of BENCH_ROUNDS runs (default 15), after one warm-up run.
import type { SignerTrailEntry } from '../src/db/schema';
import {
  buildSignedDocument,
  type SignedBy,
  type SignedDocumentInput,
} from '../src/modules/signing/signed-document';
import { certificateFacts, generateSealKey } from '../src/platform/signing/certificate';
import { type PadesLevel, padesLevels, type Timestamper } from '../src/platform/signing/pades';
import { renderPage } from '../src/platform/signing/pdf';
import { padesProfile } from '../src/platform/signing/profile';
import { BASIC_PROFILE, type PadesProfile } from '../src/platform/signing/seal';
import { verifyPdfSignatures } from '../src/platform/signing/verify';
import { printTable } from './bench-support';
import { samplePdf } from './support/sample-pdf';
import { startTrustServices } from './support/trust-services';

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

/** Up to three signers, their names in three scripts. */
const SIGNERS = ['Łukasz Żółć', 'Ελένη Παπαδοπούλου', 'Дмитрий Иванов'];

/** The bench's contract, as buildSignedDocument takes it. */
function contract(
  original: Uint8Array,
  signers: SignedBy[],
  seal: SignedDocumentInput['seal'],
  pades: PadesProfile,
  now: Date,
): SignedDocumentInput {
  return {
    original,
    title: 'Contract',
    organisation: 'Kantoor Peeters',
    actionId: 'bench',
    language: 'en',
    timeZone: 'Europe/Brussels',
    signers,
    seal,
    pades,
    now,
  };
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
      const input = contract(original, SIGNERS.slice(0, count).map(signer), seal, BASIC_PROFILE, at);
      const signed = await buildSignedDocument(input);
      const make = await median(() => buildSignedDocument(input));
      const verify = await median(() => verifyPdfSignatures(signed));
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
  await levels(signer, at);
  try {
    const original = await samplePdf(2);
    const draw = await median(() => renderPage(original, 1));
    console.log(`\nOne page drawn for the signing step (pdftoppm, 1100 px wide): ${draw.toFixed(0)} ms`);
  } catch (err) {
    console.log(`\nPage drawing not measured: ${(err as Error).message}`);
  }
}

/** The median of each column of `rows`. */
function medians(rows: number[][]): number[] {
  return rows[0]!.map((_, i) => {
    const column = rows.map((r) => r[i]!).sort((a, b) => a - b);
    return column[Math.floor(column.length / 2)]!;
  });
}

/**
 * Sealing at each level against a local time-stamping authority, OCSP responder and CRL, with 1 and 3
 * signers (each signature gets its own timestamp): the whole, and the whole less the time spent waiting
 * on the authority, the responder and the CRL (measured around each request).
 */
async function levels(signer: (name: string) => SignedBy, now: Date): Promise<void> {
  const pki = await startTrustServices();
  try {
    const seal = { key: pki.seal, certificate: certificateFacts(pki.seal) };
    const remote = padesProfile({
      level: 'B-LTA',
      tsa: { urls: [pki.tsaUrl], timeoutMs: 10_000 },
      revocationNetworks: ['127.0.0.0/8'],
    });
    let waited = 0;
    let requests = 0;
    const timed =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        const start = process.hrtime.bigint();
        try {
          return await call(...args);
        } finally {
          waited += Number(process.hrtime.bigint() - start) / 1e6;
          requests++;
        }
      };
    const stamp: Timestamper = timed(remote.stamp!);
    const original = await samplePdf(2);
    const rows: string[][] = [];
    for (const level of padesLevels as readonly PadesLevel[])
      for (const count of [1, 3]) {
        const pades: PadesProfile = {
          ...remote,
          level,
          stamp,
          fetchCrl: timed(remote.fetchCrl),
          fetchOcsp: timed(remote.fetchOcsp),
        };
        const input = contract(original, SIGNERS.slice(0, count).map(signer), seal, pades, now);
        await buildSignedDocument(input);
        const samples: number[][] = [];
        for (let i = 0; i < ROUNDS; i++) {
          waited = 0;
          requests = 0;
          const start = process.hrtime.bigint();
          await buildSignedDocument(input);
          const total = Number(process.hrtime.bigint() - start) / 1e6;
          samples.push([total, total - waited, requests, requests ? waited / requests : 0]);
        }
        const [total, without, calls, each] = medians(samples) as [number, number, number, number];
        rows.push([
          level,
          String(count),
          String(calls),
          total.toFixed(0),
          without.toFixed(0),
          calls ? each.toFixed(0) : '-',
        ]);
      }
    console.log(
      '\nPAdES levels, 2-page document, CA-issued seal, local TSA, OCSP responder and CRL over HTTP on 127.0.0.1',
    );
    printTable(
      [
        'level',
        'signers',
        'TSA, OCSP + CRL requests',
        'make + seal + timestamp ms',
        'without the round trips ms',
        'one round trip ms',
      ],
      rows,
    );
  } finally {
    await pki.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
