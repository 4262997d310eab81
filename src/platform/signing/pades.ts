import type { Certificate } from 'pkijs';
import { cmsLibraries, firstValue, OID, type OpenedSealKey, sha256 } from './cms';
import type { TimestampToken } from './tsa';

/**
 * The PAdES baseline levels (ETSI EN 319 142-1) our seals are made at:
 * - B-B: a CAdES signature with the signing certificate bound in (signing-certificate-v2);
 * - B-T: each signature also carries a trusted timestamp on its value (RFC 3161);
 * - B-LT: the file also holds what validating it needs later (the certificates, CRLs or OCSP answers
 *   of the seal's and the timestamps' chains) in its Document Security Store;
 * - B-LTA: and a document timestamp over all of it, which can be renewed before its authority's
 *   certificate expires.
 */
export const padesLevels = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export type PadesLevel = (typeof padesLevels)[number];

export const atLeast = (level: PadesLevel, wanted: PadesLevel) =>
  padesLevels.indexOf(level) >= padesLevels.indexOf(wanted);

/** Asks a time-stamping authority to stamp `data` (its SHA-256). */
export type Timestamper = (data: Uint8Array) => Promise<TimestampToken>;

/**
 * The CMS a PAdES signature holds (SignedData, detached, DER) over `signedBytes`, the file's byte
 * ranges: signed attributes content-type, message-digest and signing-certificate-v2, nothing else. The
 * claimed signing time is the signature dictionary's /M: EN 319 142-1 §6.3 forbids the CMS signing-time
 * attribute in PAdES. With `stamp`, the signature value gets a signature-time-stamp (B-T).
 */
export async function padesCms(
  key: OpenedSealKey,
  signedBytes: Uint8Array,
  stamp: Timestamper | null,
): Promise<{ cms: Buffer; token: TimestampToken | null }> {
  const { pkijs, asn1js } = await cmsLibraries();
  const parse = (der: Buffer) => new pkijs.Certificate({ schema: firstValue(asn1js, der) });
  const cert = parse(key.certificate);
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({
              type: OID.contentType,
              values: [new asn1js.ObjectIdentifier({ value: OID.data })],
            }),
            new pkijs.Attribute({
              type: OID.messageDigest,
              values: [new asn1js.OctetString({ valueHex: sha256(signedBytes) })],
            }),
            new pkijs.Attribute({
              type: OID.signingCertificateV2,
              values: [signingCertificateV2(pkijs, asn1js, cert, key.certificate)],
            }),
          ],
        }),
      }),
    ],
    certificates: [cert, ...key.chain.map(parse)],
  });
  await signed.sign(key.privateKey, 0, 'SHA-256', signedBytes);
  let token: TimestampToken | null = null;
  if (stamp) {
    const signerInfo = signed.signerInfos[0]!;
    token = await stamp(signerInfo.signature.valueBlock.valueHexView);
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [
        new pkijs.Attribute({
          type: OID.signatureTimeStamp,
          values: [firstValue(asn1js, token.der)],
        }),
      ],
    });
  }
  const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) });
  return { cms: Buffer.from(info.toSchema().toBER(false)), token };
}

/**
 * SigningCertificateV2 (RFC 5035) naming the signing certificate by its SHA-256 (the algorithm left out:
 * SHA-256 is the DER default) and its issuer and serial number. PKI.js has no class for it.
 */
function signingCertificateV2(
  pkijs: typeof import('pkijs'),
  asn1js: typeof import('asn1js'),
  cert: Certificate,
  der: Buffer,
) {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }).toSchema(),
      new asn1js.Integer({ valueHex: cert.serialNumber.valueBlock.valueHexView }),
    ],
  });
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: sha256(der) }), issuerSerial],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}
