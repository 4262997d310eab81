import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startTrustServices, type TrustServices } from '../scripts/support/trust-services';
import { cmsLibraries, firstValue, OID, parseCertificate } from '../src/platform/signing/cms';
import { ocspQuestion } from '../src/platform/signing/ocsp';
import type { PadesLevel } from '../src/platform/signing/pades';
import { padesProfile } from '../src/platform/signing/profile';
import { uncheckableCertificates, validationData } from '../src/platform/signing/revocation';
import { type SealInfo, sealPdf, sealSignatures } from '../src/platform/signing/seal';
import { TimestampError } from '../src/platform/signing/tsa';
import { verifyPdfSignatures } from '../src/platform/signing/verify';

let pki: TrustServices;
let n = 0;
beforeAll(async () => {
  pki = await startTrustServices();
});
afterAll(() => pki.close());

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 72, y: 760, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

const info = (name: string): SealInfo => ({
  reason: `Signed by ${name}`,
  name,
  location: 'Gent',
  contactInfo: '',
  signingTime: new Date(),
});

/** The local authorities are on this machine: the responder and CRL the certificates name too. */
const profile = (level: PadesLevel, urls = [pki.tsaUrl], revocationNetworks = ['127.0.0.0/8']) =>
  padesProfile({ level, tsa: { urls, timeoutMs: 5_000 }, revocationNetworks });

function file(bytes: Uint8Array, name: string): string {
  const at = path.join(pki.dir, `${++n}-${name}`);
  fs.writeFileSync(at, bytes);
  return at;
}

/** What pdfsig says (it exits 0 even for a broken signature: read its text). Never goes online. */
const pdfsig = (bytes: Uint8Array) =>
  execFileSync('pdfsig', ['-no-ocsp', file(bytes, 'doc.pdf')], { encoding: 'utf8' });

/** Each signature's ByteRange and /Contents, read from the file as any verifier reads it. */
function signaturesIn(pdf: Buffer): { signedBytes: Buffer; contents: Buffer; subFilter: string }[] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\]/g)].map((m) => {
    const [a, b, c, d] = m.slice(1, 5).map(Number) as [number, number, number, number];
    const dict = text.slice(text.lastIndexOf('<<', m.index), c + 400);
    return {
      signedBytes: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]),
      contents: Buffer.from(text.slice(b + 1, c - 1), 'hex'),
      subFilter: /\/SubFilter \/([\w.]+)/.exec(dict)?.[1] ?? '',
    };
  });
}

/** `openssl ts -verify` of a token over `data`, trusting only the test CA. */
function opensslTsVerify(token: Buffer, data: Buffer): string {
  return execFileSync(
    'openssl',
    [
      'ts',
      '-verify',
      '-in',
      file(token, 'token.der'),
      '-token_in',
      '-data',
      file(data, 'data.bin'),
      '-CAfile',
      pki.caFile,
      '-untrusted',
      pki.tsaCertFile,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** The signature-time-stamp token (DER) and the signature value it stamps, from a CAdES signature. */
async function signatureTimestamp(cms: Buffer): Promise<{ token: Buffer; value: Buffer } | null> {
  const { pkijs, asn1js } = await cmsLibraries();
  const signed = new pkijs.SignedData({
    schema: new pkijs.ContentInfo({ schema: firstValue(asn1js, cms) }).content,
  });
  const signer = signed.signerInfos[0]!;
  const attribute = signer.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStamp);
  if (!attribute) return null;
  return {
    token: Buffer.from(attribute.values[0].toBER(false)),
    value: Buffer.from(signer.signature.valueBlock.valueHexView),
  };
}

/** The streams the Document Security Store lists under `key`. */
function dssStreams(pdf: Buffer, key: 'Certs' | 'CRLs' | 'OCSPs'): Buffer[] {
  const text = pdf.toString('latin1');
  const dss = text.slice(text.lastIndexOf('/Type /DSS'));
  const list = new RegExp(`/${key} \\[([^\\]]*)\\]`).exec(dss)?.[1] ?? '';
  return [...list.matchAll(/(\d+) 0 R/g)].map((m) => {
    const at = text.lastIndexOf(`\n${m[1]} 0 obj\n`);
    const length = Number(/\/Length (\d+)/.exec(text.slice(at, at + 80))![1]);
    const start = text.indexOf('stream\n', at) + 'stream\n'.length;
    return pdf.subarray(start, start + length);
  });
}

const der = (pemFile: string) => execFileSync('openssl', ['x509', '-in', pemFile, '-outform', 'DER']);

/** `openssl ocsp` reading an answer (DER) about `certPem`, checking its signer against the test CA. */
function opensslOcspStatus(answer: Buffer, certPem: string): string {
  return execFileSync(
    'openssl',
    [
      'ocsp',
      '-respin',
      file(answer, 'answer.der'),
      '-issuer',
      pki.caFile,
      '-cert',
      path.join(pki.dir, certPem),
      '-CAfile',
      pki.caFile,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

describe('PAdES baseline signatures', () => {
  it('when sealed at B-B, then the CAdES signature binds its certificate (openssl -cades verifies), has no CMS signing time, and no timestamp', async () => {
    const sealed = await sealPdf(await onePagePdf('B-B'), pki.seal, info('Ann'), profile('B-B'));
    const [sig] = signaturesIn(sealed);
    expect(sig!.subFilter).toBe('ETSI.CAdES.detached');
    const out = execFileSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-cades',
        '-binary',
        '-inform',
        'DER',
        '-in',
        file(sig!.contents, 'sig.p7s'),
        '-content',
        file(sig!.signedBytes, 'signed.bin'),
        '-CAfile',
        pki.caFile,
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).toBe('');
    const printed = execFileSync(
      'openssl',
      ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', file(sig!.contents, 'sig.p7s')],
      { encoding: 'utf8' },
    );
    expect(printed).toContain('id-smime-aa-signingCertificateV2');
    expect(printed).toContain('messageDigest');
    expect(printed).not.toContain('signingTime');
    expect(await signatureTimestamp(sig!.contents)).toBeNull();
    expect(pki.counts.stamped).toBe(0);
    expect(pdfsig(sealed)).toContain('Signature is Valid.');
  });

  it('when sealed at B-T for three signers, then each signature carries its own token, which openssl ts -verify accepts over that signature, and every signature stays valid', async () => {
    const before = pki.counts.stamped;
    const signed = await sealSignatures(
      Buffer.from(await (await PDFDocument.load(await onePagePdf('B-T'))).save({ useObjectStreams: false })),
      pki.seal,
      [info('Ann'), info('Bob'), info('Chloé')],
      profile('B-T'),
    );
    expect(pki.counts.stamped - before).toBe(3);
    const sigs = signaturesIn(signed);
    expect(sigs).toHaveLength(3);
    const tokens = [];
    for (const sig of sigs) {
      const stamp = await signatureTimestamp(sig.contents);
      expect(stamp).not.toBeNull();
      expect(opensslTsVerify(stamp!.token, stamp!.value)).toContain('Verification: OK');
      tokens.push(stamp!.token.toString('hex'));
    }
    expect(new Set(tokens).size).toBe(3);
    const report = pdfsig(signed);
    expect(report.match(/Signature is Valid\./g)).toHaveLength(3);
    expect(report).toContain('Total document signed');
  });

  it('when sealed at B-LT, then the Document Security Store holds the chains, the seal’s OCSP answer (openssl ocsp verifies it: good) and the authority’s CRL, and the signatures stay valid', async () => {
    const crls = pki.counts.crls;
    const ocsp = pki.counts.ocsp;
    const sealed = await sealPdf(await onePagePdf('B-LT'), pki.seal, info('Ann'), profile('B-LT'));
    const certs = dssStreams(sealed, 'Certs').map((c) => c.toString('hex'));
    // The seal's chain, the authority's, and the responder's certificate that signed the OCSP answer.
    for (const pem of ['seal.pem', 'ca.pem', 'tsa.pem', 'ocsp.pem'])
      expect(certs).toContain(der(path.join(pki.dir, pem)).toString('hex'));
    expect(certs).toHaveLength(4);
    // The seal names a responder: its status is the OCSP answer; the authority names only the CRL.
    expect(dssStreams(sealed, 'CRLs').map((c) => c.toString('hex'))).toEqual([
      fs.readFileSync(path.join(pki.dir, 'ca.crl')).toString('hex'),
    ]);
    expect(pki.counts.crls - crls).toBe(1);
    expect(pki.counts.ocsp - ocsp).toBe(1);
    const [answer] = dssStreams(sealed, 'OCSPs');
    expect(opensslOcspStatus(answer!, 'seal.pem')).toMatch(/seal\.pem: good/);
    const report = pdfsig(sealed);
    expect(report).toContain('Signature is Valid.');
    // The store is an update after the signature: what it covers is the file before it.
    expect(report).toContain('Not total document signed');
  });

  it('when sealed at B-LTA, then a document timestamp over the whole file follows the store, and openssl ts -verify accepts it', async () => {
    const sealed = await sealPdf(await onePagePdf('B-LTA'), pki.seal, info('Ann'), profile('B-LTA'));
    const sigs = signaturesIn(sealed);
    expect(sigs.map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161']);
    const docStamp = sigs[1]!;
    expect(sealed.indexOf('/Type /DSS')).toBeLessThan(sealed.indexOf('/Type /DocTimeStamp'));
    // The last revision covers everything before it, up to the end of the file.
    expect(docStamp.signedBytes.length + docStamp.contents.length * 2 + 2).toBe(sealed.length);
    const token = firstDer(docStamp.contents);
    expect(opensslTsVerify(token, docStamp.signedBytes)).toContain('Verification: OK');
    expect(pdfsig(sealed)).toContain('Signature is Valid.');
  });

  it('when each level is verified, then the report names it, with the timestamps’ time and authority and the embedded validation data', async () => {
    const levels: PadesLevel[] = ['B-B', 'B-T', 'B-LT', 'B-LTA'];
    for (const level of levels) {
      const sealed = await sealPdf(await onePagePdf(level), pki.seal, info('Ann'), profile(level));
      const report = await verifyPdfSignatures(sealed);
      expect({ level, valid: report.valid, modified: report.modifiedAfterLastSignature }).toEqual({
        level,
        valid: true,
        modified: false,
      });
      expect(report.pades.level).toBe(level);
      const [signature, docStamp] = report.signatures;
      expect(signature).toMatchObject({
        kind: 'signature',
        name: 'Ann',
        subFilter: 'ETSI.CAdES.detached',
        intact: true,
        level: level === 'B-B' ? 'B-B' : 'B-T',
        coversWholeFile: level === 'B-B' || level === 'B-T',
        certificate: { subject: 'CN=Kantoor Peeters seal, O=ActionDesk Tests', selfSigned: false },
      });
      if (level === 'B-B') expect(signature!.timestamp).toBeNull();
      else {
        expect(signature!.timestamp).toMatchObject({ authority: 'ActionDesk Test TSA', intact: true });
        // The authority's clock is the machine's: within a minute of now.
        expect(Math.abs(Date.parse(signature!.timestamp!.time) - Date.now())).toBeLessThan(60_000);
      }
      expect(report.pades.validationData).toEqual(
        level === 'B-LT' || level === 'B-LTA'
          ? { embedded: true, certificates: 4, crls: 1, ocspResponses: 1 }
          : { embedded: false, certificates: 0, crls: 0, ocspResponses: 0 },
      );
      if (level === 'B-LTA')
        expect(docStamp).toMatchObject({
          kind: 'document-timestamp',
          name: 'ActionDesk Test TSA',
          subFilter: 'ETSI.RFC3161',
          intact: true,
          level: null,
          coversWholeFile: true,
          certificate: { subject: 'CN=ActionDesk Test TSA, O=ActionDesk Tests' },
          timestamp: { authority: 'ActionDesk Test TSA', intact: true },
        });
      else expect(docStamp).toBeUndefined();
    }
  });

  it('when anything but validation data is appended after a B-LT signature, then the file is modified, not valid', async () => {
    const sealed = await sealPdf(await onePagePdf('Tail'), pki.seal, info('Ann'), profile('B-LT'));
    // An update that adds a page-sized object next to the store's: not validation data.
    const text = sealed.toString('latin1');
    const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
    const extra = Buffer.from(
      `\n999 0 obj\n<< /Type /Annot /Subtype /Text /Contents (added later) >>\nendobj\nxref\n999 1\n0000000000 00000 n \ntrailer\n<< /Size 1000 /Root 1 0 R /Prev ${startxref} >>\nstartxref\n${sealed.length}\n%%EOF\n`,
      'latin1',
    );
    const report = await verifyPdfSignatures(Buffer.concat([sealed, extra]));
    expect(report).toMatchObject({ valid: false, modifiedAfterLastSignature: true });
    expect(report.signatures[0]!.intact).toBe(true);
  });

  it('when a byte of a B-LTA file is flipped, then the signatures and the timestamp break', async () => {
    const sealed = await sealPdf(await onePagePdf('Flip me'), pki.seal, info('Ann'), profile('B-LTA'));
    const broken = Buffer.from(sealed);
    // A byte of the page's content stream, covered by every signature.
    const at = broken.indexOf('stream\n') + 10;
    broken[at] = broken[at]! ^ 0x01;
    expect(pdfsig(broken)).toContain('Signature Validation: Digest Mismatch.');
    const docStamp = signaturesIn(broken)[1]!;
    expect(() => opensslTsVerify(firstDer(docStamp.contents), docStamp.signedBytes)).toThrow(
      /message imprint mismatch/,
    );
    const report = await verifyPdfSignatures(broken);
    expect(report.valid).toBe(false);
    expect(report.signatures.map((s) => s.intact)).toEqual([false, false]);
    expect(report.signatures[0]!.problems).toEqual(['the signed bytes were changed (digest mismatch)']);
    expect(report.signatures[1]!.problems[0]).toMatch(/^the document timestamp does not verify: /);
  });

  it('when the first authority fails, then the next on the list stamps; when all fail, then sealing fails naming each', async () => {
    const refused = pki.counts.refused;
    const sealed = await sealPdf(
      await onePagePdf('Fallback'),
      pki.seal,
      info('Ann'),
      profile('B-T', [pki.brokenTsaUrl, pki.tsaUrl]),
    );
    expect(pki.counts.refused - refused).toBe(1);
    expect(await signatureTimestamp(signaturesIn(sealed)[0]!.contents)).not.toBeNull();
    pki.down = true;
    try {
      const failing = sealPdf(
        await onePagePdf('Down'),
        pki.seal,
        info('Ann'),
        profile('B-T', [pki.brokenTsaUrl, pki.tsaUrl]),
      );
      await expect(failing).rejects.toThrow(TimestampError);
      await expect(failing).rejects.toThrow(
        `no timestamp: ${pki.brokenTsaUrl}: answered HTTP 503; ${pki.tsaUrl}: answered HTTP 503`,
      );
    } finally {
      pki.down = false;
    }
  });
});

describe('OCSP answers in the Document Security Store', () => {
  const sealCert = () => der(path.join(pki.dir, 'seal.pem'));
  const caCert = () => der(pki.caFile);
  /** The OCSP question about a certificate the test CA issued (DER). */
  const questionAbout = async (cert: Buffer) =>
    ocspQuestion(await parseCertificate(cert), await parseCertificate(caCert()));
  const ask = async (question: { request: Buffer }) =>
    Buffer.from(
      await (
        await fetch(pki.ocspUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/ocsp-request' },
          body: question.request,
        })
      ).arrayBuffer(),
    );

  it('when the responder is down, then the seal’s CRL stands in for its answer', async () => {
    pki.ocspDown = true;
    try {
      const sealed = await sealPdf(await onePagePdf('No OCSP'), pki.seal, info('Ann'), profile('B-LT'));
      expect(dssStreams(sealed, 'OCSPs')).toEqual([]);
      expect(dssStreams(sealed, 'CRLs')).toHaveLength(1);
      expect((await verifyPdfSignatures(sealed)).pades.validationData).toEqual({
        embedded: true,
        certificates: 3,
        crls: 1,
        ocspResponses: 0,
      });
    } finally {
      pki.ocspDown = false;
    }
  });

  it('when the seal is revoked, then sealing at B-LT fails saying so, and nothing falls back to the CRL', async () => {
    const seal = pki.issueSeal('Revoked seal');
    await sealPdf(await onePagePdf('Before'), seal, info('Ann'), profile('B-LT'));
    pki.revoke(seal.name);
    const crls = pki.counts.crls;
    await expect(sealPdf(await onePagePdf('After'), seal, info('Ann'), profile('B-LT'))).rejects.toThrow(
      'Revoked seal is revoked (OCSP)',
    );
    expect(pki.counts.crls).toBe(crls);
  });

  it('when a certificate names only its OCSP responder and its authority is not among the certificates, then it is uncheckable and its validation data fails naming it', async () => {
    const lone = pki.issueSeal('Lone seal', { crl: false, chain: false });
    const leaf = der(path.join(pki.dir, `${lone.name}.pem`));
    expect(await uncheckableCertificates([leaf])).toEqual(['Lone seal']);
    expect(await uncheckableCertificates([leaf, caCert()])).toEqual([]);
    const sources = profile('B-LT');
    await expect(validationData([leaf], sources)).rejects.toThrow(
      'no revocation data for Lone seal: its issuer’s certificate is not in the chain, to ask its OCSP responder',
    );
    const data = await validationData([leaf, caCert()], sources);
    expect([data.ocspResponses.length, data.crls.length]).toEqual([1, 0]);
    // At B-LT the authority's token brings the CA too (the test TSA shares it): the seal then seals.
    const sealed = await sealPdf(await onePagePdf('Lone'), lone, info('Ann'), profile('B-LT'));
    expect(dssStreams(sealed, 'OCSPs')).toHaveLength(1);
  });

  it('when the certificates name responders and CRLs on this machine but the operator lists no private network, then nothing is fetched from them and sealing fails', async () => {
    const crls = pki.counts.crls;
    const ocsp = pki.counts.ocsp;
    await expect(
      sealPdf(await onePagePdf('Inside'), pki.seal, info('Ann'), profile('B-LT', [pki.tsaUrl], [])),
    ).rejects.toThrow(/127\.0\.0\.1/);
    expect([pki.counts.crls - crls, pki.counts.ocsp - ocsp]).toEqual([0, 0]);
  });

  it('when an answer is altered, or is about another certificate, then it is refused', async () => {
    const question = await questionAbout(sealCert());
    const answer = await ask(question);
    await expect(question.check(answer, new Date())).resolves.toEqual({
      certificates: [der(path.join(pki.dir, 'ocsp.pem'))],
    });
    // A second of the signed time it was produced at, changed: the signature no longer verifies.
    const altered = Buffer.from(answer);
    const at = answer.toString('latin1').search(/\d{14}Z/) + 13;
    altered[at] = altered[at]! ^ 0x01;
    await expect(question.check(altered, new Date())).rejects.toThrow(
      'the answer’s signature does not verify',
    );

    const other = pki.issueSeal('Another seal');
    fs.writeFileSync(path.join(pki.dir, 'other.p12'), other.p12);
    const otherPem = execFileSync('openssl', [
      'pkcs12',
      '-in',
      path.join(pki.dir, 'other.p12'),
      '-passin',
      `pass:${other.passphrase}`,
      '-clcerts',
      '-nokeys',
    ]);
    const otherDer = execFileSync('openssl', ['x509', '-outform', 'DER'], { input: otherPem });
    const answerForOther = await ask(await questionAbout(otherDer));
    await expect(question.check(answerForOther, new Date())).rejects.toThrow(
      'the answer is not about Kantoor Peeters seal',
    );
    // Taken as current only while it is: a day past its next update, it is out of date.
    await expect(question.check(answer, new Date(Date.now() + 2 * 86_400_000))).rejects.toThrow(
      /out of date/,
    );
  });
});

/** The DER value at the start of a padded /Contents. */
function firstDer(contents: Buffer): Buffer {
  // A long-form length: 0x30 0x82 HI LO.
  expect(contents[0]).toBe(0x30);
  const lengthBytes = contents[1]! & 0x7f;
  const length = contents.subarray(2, 2 + lengthBytes).reduce((acc, b) => acc * 256 + b, 0);
  return contents.subarray(0, 2 + lengthBytes + length);
}
