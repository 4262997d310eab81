import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { parseEncryptionKeys, SecretBox } from '../src/platform/crypto/sealed';
import { asciiName, certificateFacts, generateSealKey } from '../src/platform/signing/certificate';
import { sealPdf } from '../src/platform/signing/seal';
import { loadSealKey } from '../src/platform/signing/seal-key';
import { type Harness, startHarness } from './support/harness';

let h: Harness;
let dir: string;
const box = new SecretBox(parseEncryptionKeys(`t1:${Buffer.alloc(32, 7).toString('base64')}`));
beforeAll(async () => {
  h = await startHarness();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-signing-'));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function onePagePdf(text: string) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 72, y: 760, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

/** What Debian's pdfsig says of a file (it exits 0 even for a broken signature: read its text). */
function pdfsig(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return execFileSync('pdfsig', [file], { encoding: 'utf8' });
}

const info = () => ({
  reason: 'Sealed by ActionDesk',
  name: 'ActionDesk',
  location: 'Gent',
  contactInfo: 'support@example.test',
  signingTime: h.clock.now(),
});

describe('sealing PDFs', () => {
  it('when a PDF is sealed with the generated key, then pdfsig finds a valid CAdES signature over the whole file, and a flipped byte breaks it', async () => {
    const deps = { database: h.database, box, clock: h.clock };
    const seal = await loadSealKey(deps, {
      kind: 'generated',
      commonName: 'ActionDesk seal Société Générale',
    });
    expect(seal.source).toBe('generated');
    expect(seal.certificate.subject).toContain('CN=ActionDesk seal Societe Generale');
    // Kept in the database: a second start uses the same key.
    const again = await loadSealKey(deps, { kind: 'generated', commonName: 'another name' });
    expect(again.certificate.fingerprint).toBe(seal.certificate.fingerprint);

    const sealed = await sealPdf(await onePagePdf('Contract 42'), seal.key, info());
    const report = pdfsig(sealed, 'sealed.pdf');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: ActionDesk seal Societe Generale');

    const tampered = Buffer.from(sealed);
    const at =
      tampered.indexOf('Contract 42') >= 0
        ? tampered.indexOf('Contract 42')
        : tampered.indexOf('stream') + 10;
    tampered[at] = tampered[at]! ^ 0x01;
    expect(pdfsig(tampered, 'tampered.pdf')).toContain('Digest Mismatch');
  });

  it('when a certificate is configured, then it seals instead of the generated one; a wrong password is refused naming the variable', async () => {
    const configured = generateSealKey('Configured Seal', h.clock.now());
    const file = path.join(dir, 'seal.p12');
    fs.writeFileSync(file, configured.p12);
    const deps = { database: h.database, box, clock: h.clock };
    const seal = await loadSealKey(deps, {
      kind: 'configured',
      p12Path: file,
      password: configured.passphrase,
    });
    expect(seal.source).toBe('configured');
    expect(seal.certificate.fingerprint).toBe(certificateFacts(configured).fingerprint);
    const report = pdfsig(await sealPdf(await onePagePdf('Configured'), seal.key, info()), 'configured.pdf');
    expect(report).toContain('Signer Certificate Common Name: Configured Seal');
    expect(report).toContain('Signature is Valid.');
    await expect(loadSealKey(deps, { kind: 'configured', p12Path: file, password: 'wrong' })).rejects.toThrow(
      /SIGNING_CERT_P12: .* does not open with SIGNING_CERT_PASSWORD/,
    );
    await expect(
      loadSealKey(deps, { kind: 'configured', p12Path: path.join(dir, 'missing.p12'), password: '' }),
    ).rejects.toThrow(/SIGNING_CERT_P12: cannot read .*missing\.p12 \(ENOENT\)/);
  });

  it('when a name is not plain ASCII, then the certificate subject is transliterated, never empty', () => {
    expect(asciiName('Łukasz Żółć BV')).toBe('Lukasz Zolc BV');
    expect(asciiName('Ελένη Παπαδοπούλου')).toBe('Eleni Papadopoulou');
    expect(asciiName('Дмитрий Иванов')).toBe('Dmitrii Ivanov');
    expect(asciiName('山田')).toBe('ActionDesk');
    expect(asciiName('  Café   Zürich ')).toBe('Cafe Zurich');
  });
});
