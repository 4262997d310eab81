import type { Certificate } from 'pkijs';
import { cmsLibraries, commonNameOf, firstValue } from './cms';

// OCSP (RFC 6960) for the Document Security Store: asking a certificate's responder whether it is good,
// and checking the answer before it goes into a signed document (where to ask: revocation.ts).

const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
const OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
const EXTENDED_KEY_USAGE = '2.5.29.37';
/** How far a responder's clock may run ahead of ours. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** How old an answer that names no next update may be (responders without one answer afresh). */
const MAX_AGE_WITHOUT_NEXT_UPDATE_MS = 24 * 3_600_000;

/** A certificate the responder says is revoked: a definite answer, not an outage. */
export class CertificateRevoked extends Error {}

/** An OCSP question ready to send, and how to check its answer. */
export interface OcspQuestion {
  /** The DER OCSPRequest (POST it as application/ocsp-request). */
  request: Buffer;
  /**
   * Checks an answer: a successful basic response, signed by the issuer or a responder it delegated to,
   * about this certificate, saying it is good, current at `now`. Returns the certificates the answer
   * came with that the issuer delegated to (the responder's, for the store). Throws CertificateRevoked
   * for a revoked certificate, an Error for anything else (unknown to the responder included).
   */
  check(answer: Buffer, now: Date): Promise<{ certificates: Buffer[] }>;
}

const der64 = (c: Certificate) => Buffer.from(c.toSchema(true).toBER(false)).toString('base64');

/** The question about `cert`, issued by `issuer` (the CertID with SHA-1, which every responder takes). */
export async function ocspQuestion(cert: Certificate, issuer: Certificate): Promise<OcspQuestion> {
  const { pkijs, asn1js } = await cmsLibraries();
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(cert, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
  const asked = request.tbsRequest.requestList[0]!.reqCert;
  const name = commonNameOf(cert.subject as never);
  return {
    request: Buffer.from(request.toSchema(true).toBER(false)),
    async check(answer, now) {
      if (asn1js.fromBER(answer).offset !== answer.length)
        throw new Error('the answer is not one DER value (bytes before or after it)');
      const response = new pkijs.OCSPResponse({ schema: firstValue(asn1js, answer) });
      const status = response.responseStatus.valueBlock.valueDec;
      if (status !== 0) throw new Error(`the responder refused (OCSP status ${status})`);
      if (response.responseBytes?.responseType !== OCSP_BASIC)
        throw new Error('the answer is not a basic OCSP response');
      const basic = new pkijs.BasicOCSPResponse({
        schema: firstValue(asn1js, response.responseBytes.response.valueBlock.valueHexView),
      });
      // Signed by the issuer itself (which may leave its certificate out) or by a responder it delegated
      // to (id-kp-OCSPSigning, issued by it): PKI.js checks the chain and the delegation.
      const came = basic.certs ?? [];
      if (!came.some((c) => der64(c) === der64(issuer))) basic.certs = [...came, issuer];
      const signed = await basic
        .verify({ trustedCerts: [issuer], issuerCerts: [issuer] })
        .catch((err: Error) => {
          throw new Error(`the answer’s signer is not the issuer or its responder (${err.message})`);
        });
      if (!signed) throw new Error('the answer’s signature does not verify');
      const single = basic.tbsResponseData.responses.find((r) => r.certID.isEqual(asked));
      if (!single) throw new Error(`the answer is not about ${name}`);
      const tag = (single.certStatus as { idBlock: { tagNumber: number } }).idBlock.tagNumber;
      if (tag === 1) throw new CertificateRevoked(`${name} is revoked (OCSP)`);
      if (tag !== 0) throw new Error(`the responder does not know ${name}`);
      const produced = basic.tbsResponseData.producedAt;
      for (const at of [single.thisUpdate, produced])
        if (at.getTime() > now.getTime() + CLOCK_SKEW_MS)
          throw new Error(`the answer is dated in the future (${at.toISOString()})`);
      if (single.nextUpdate && single.nextUpdate.getTime() < now.getTime() - CLOCK_SKEW_MS)
        throw new Error(`the answer is out of date (next update ${single.nextUpdate.toISOString()})`);
      if (!single.nextUpdate && now.getTime() - single.thisUpdate.getTime() > MAX_AGE_WITHOUT_NEXT_UPDATE_MS)
        throw new Error(`the answer is out of date (of ${single.thisUpdate.toISOString()}, no next update)`);
      // Only the responders the issuer delegated to go into the store, not whatever else came along.
      const delegated = came.filter(
        (c) =>
          der64(c) !== der64(issuer) &&
          c.issuer.isEqual(issuer.subject) &&
          (
            c.extensions?.find((e) => e.extnID === EXTENDED_KEY_USAGE)?.parsedValue as
              | { keyPurposes?: string[] }
              | undefined
          )?.keyPurposes?.includes(OCSP_SIGNING),
      );
      return { certificates: delegated.map((c) => Buffer.from(c.toSchema(true).toBER(false))) };
    },
  };
}
