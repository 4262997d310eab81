import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** A PKCS#12 bundle (private key and certificate) and the passphrase that opens it. */
export interface SealKey {
  p12: Buffer;
  passphrase: string;
}

export interface CertificateFacts {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 of the certificate (DER), hex. */
  fingerprint: string;
}

/**
 * Verifiers reject a seal whose certificate subject is not plain ASCII (node-forge encodes it in a way
 * they do not accept), so names are transliterated: "Société Générale" → "Societe Generale".
 */
const UNDECOMPOSED: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Ø: 'O',
  ø: 'o',
  Đ: 'D',
  đ: 'd',
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Þ: 'Th',
  þ: 'th',
  Ð: 'D',
  ð: 'd',
  ı: 'i',
  Ħ: 'H',
  ħ: 'h',
};

// Cyrillic and Greek letters by their common Latin spelling (ISO 9-like, simplified); others go.
const CYRILLIC: Record<string, string> = Object.fromEntries(
  [
    'А A',
    'Б B',
    'В V',
    'Г G',
    'Д D',
    'Е E',
    'Ё E',
    'Ж Zh',
    'З Z',
    'И I',
    'Й I',
    'К K',
    'Л L',
    'М M',
    'Н N',
    'О O',
    'П P',
    'Р R',
    'С S',
    'Т T',
    'У U',
    'Ф F',
    'Х Kh',
    'Ц Ts',
    'Ч Ch',
    'Ш Sh',
    'Щ Shch',
    'Ъ -',
    'Ы Y',
    'Ь -',
    'Э E',
    'Ю Iu',
    'Я Ia',
    'Є Ie',
    'І I',
    'Ї I',
    'Ґ G',
    'Α A',
    'Β V',
    'Γ G',
    'Δ D',
    'Ε E',
    'Ζ Z',
    'Η I',
    'Θ Th',
    'Ι I',
    'Κ K',
    'Λ L',
    'Μ M',
    'Ν N',
    'Ξ X',
    'Ο O',
    'Π P',
    'Ρ R',
    'Σ S',
    'Τ T',
    'Υ Y',
    'Φ F',
    'Χ Ch',
    'Ψ Ps',
    'Ω O',
  ].flatMap((pair) => {
    const [from, to] = pair.split(' ') as [string, string];
    const latin = to === '-' ? '' : to;
    return [
      [from, latin],
      [from.toLowerCase(), latin.toLowerCase()],
    ];
  }),
);

/** Text in plain printable ASCII: accents dropped, Ł → L, Cyrillic and Greek spelled in Latin. */
export function transliterate(text: string): string {
  return text
    .replace(/[ŁłØøĐđßÆæŒœÞþÐðıĦħ]/g, (c) => UNDECOMPOSED[c] ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ου/g, 'ou')
    .replace(/Ου/g, 'Ou')
    .replace(/ΟΥ/g, 'OU')
    .replace(/[\u0370-\u03ff\u0400-\u04ff]/g, (c) => CYRILLIC[c] ?? (c === 'ς' ? 's' : ''))
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function asciiName(name: string): string {
  return transliterate(name).slice(0, 64) || 'ActionDesk';
}

/**
 * A self-signed RSA-2048 seal certificate (node-forge signs with RSA only), valid ten years from `now`,
 * for document signing (digitalSignature, nonRepudiation).
 */
export function generateSealKey(commonName: string, now: Date): SealKey {
  // Node's native generator (node-forge's own takes seconds); node-forge then builds the certificate.
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const privateKey = forge.pki.privateKeyFromPem(
    pair.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
  );
  const publicKey = forge.pki.publicKeyFromPem(
    pair.publicKey.export({ type: 'spki', format: 'pem' }) as string,
  );
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 10 * 365 * 86_400_000);
  const attrs = [
    { name: 'commonName', value: asciiName(commonName) },
    { name: 'organizationName', value: 'ActionDesk' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  const passphrase = randomBytes(24).toString('base64url');
  const asn1 = forge.pkcs12.toPkcs12Asn1(privateKey, [cert], passphrase, { algorithm: '3des' });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'), passphrase };
}

/** What a PKCS#12 bundle holds: the RSA key, the certificate that goes with it, and the others. */
export interface Pkcs12Contents {
  privateKey: forge.pki.rsa.PrivateKey;
  certificate: forge.pki.Certificate;
  /** The other certificates (the chain up to the authority), in the bundle's order. */
  chain: forge.pki.Certificate[];
}

/**
 * Opens a PKCS#12 bundle: its key, and the certificate whose public key matches it (whatever order the
 * bundle lists its certificates in). Throws when it does not open, or holds no key or no such certificate.
 */
export function readPkcs12(key: SealKey): Pkcs12Contents {
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(key.p12.toString('binary')));
  const p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, key.passphrase);
  const bags = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keyBag = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bags(forge.pki.oids.keyBag!)][0];
  const privateKey = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!privateKey) throw new Error('the PKCS#12 file holds no private key');
  const certs = bags(forge.pki.oids.certBag!).flatMap((b) => (b.cert ? [b.cert] : []));
  const certificate = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.equals(privateKey.n) && pub.e?.equals(privateKey.e);
  });
  if (!certificate) throw new Error('the PKCS#12 file holds no certificate for its private key');
  return { privateKey, certificate, chain: certs.filter((c) => c !== certificate) };
}

/** What a PKCS#12 bundle's certificate says; throws when it does not open or holds no key and certificate. */
export function certificateFacts(key: SealKey): CertificateFacts {
  return factsOf(readPkcs12(key).certificate);
}

/** A node-forge certificate as DER. */
export const derOf = (cert: forge.pki.Certificate): Buffer =>
  Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');

/** What a certificate says (names as `CN=…, O=…`, an attribute without a short name by its OID). */
export function factsOf(cert: forge.pki.Certificate): CertificateFacts {
  const name = (attrs: forge.pki.CertificateField[]) =>
    attrs.map((a) => `${a.shortName ?? a.name ?? a.type}=${String(a.value)}`).join(', ');
  return {
    subject: name(cert.subject.attributes),
    issuer: name(cert.issuer.attributes),
    serialNumber: cert.serialNumber,
    notBefore: cert.validity.notBefore,
    notAfter: cert.validity.notAfter,
    fingerprint: createHash('sha256').update(derOf(cert)).digest('hex'),
  };
}
