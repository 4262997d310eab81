import { createHash, createPrivateKey, webcrypto } from 'node:crypto';
import forge from 'node-forge';
import { derOf, readPkcs12, type SealKey } from './certificate';

type Pkijs = typeof import('pkijs');
type Asn1js = typeof import('asn1js');
export interface CmsLibraries {
  pkijs: Pkijs;
  asn1js: Asn1js;
}

let loading: Promise<CmsLibraries> | undefined;

/**
 * PKI.js and its ASN.1 library (ES modules), loaded on first use like the other PDF libraries. PKI.js
 * keeps its crypto engine on the process's global object, which each test file has its own copy of:
 * the engine is set again on every load.
 */
export function cmsLibraries(): Promise<CmsLibraries> {
  // One after the other: they share modules, which Jest's ES module loader cannot link twice at once.
  loading ??= (async () => {
    const asn1js = await import('asn1js');
    const pkijs = await import('pkijs');
    pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as never }));
    return { pkijs, asn1js };
  })();
  return loading;
}

/** OIDs used in CMS and PAdES. */
export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStamp: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  crlDistributionPoints: '2.5.29.31',
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
} as const;

/** A seal key opened: its private key for signing, its certificate and the chain that came with it (DER). */
export interface OpenedSealKey {
  privateKey: webcrypto.CryptoKey;
  certificate: Buffer;
  chain: Buffer[];
}

/** Opens a PKCS#12 bundle for signing (see readPkcs12): its key as a signing key, its certificates as DER. */
export async function openSealKey(key: SealKey): Promise<OpenedSealKey> {
  const { privateKey: rsa, certificate, chain } = readPkcs12(key);
  const pkcs8 = createPrivateKey(forge.pki.privateKeyToPem(rsa)).export({ type: 'pkcs8', format: 'der' });
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    pkcs8,
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return { privateKey, certificate: derOf(certificate), chain: chain.map(derOf) };
}

export const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** The first ASN.1 value of `der` (a PDF signature's /Contents is padded with zeros after it). */
export function firstValue(asn1js: Asn1js, der: Uint8Array): ReturnType<Asn1js['fromBER']>['result'] {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new Error(`not DER: ${parsed.result.error}`);
  return parsed.result;
}

/** A DER certificate as PKI.js reads it. */
export async function parseCertificate(der: Uint8Array): Promise<import('pkijs').Certificate> {
  const { pkijs, asn1js } = await cmsLibraries();
  return new pkijs.Certificate({ schema: firstValue(asn1js, der) });
}

/** A certificate's subject common name (else its organisation, else the whole name), for reports. */
export function commonNameOf(name: {
  typesAndValues: { type: string; value: { valueBlock: { value: unknown } } }[];
}): string {
  const value = (oid: string) =>
    name.typesAndValues.find((t) => t.type === oid)?.value.valueBlock.value as string | undefined;
  return value(OID.commonName) ?? value(OID.organizationName) ?? 'unknown';
}
