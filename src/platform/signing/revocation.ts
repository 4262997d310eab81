import { cmsLibraries, firstValue } from './cms';
import { CertificateNotGood, ocspAddresses, ocspQuestion } from './ocsp';
import { crlAddresses } from './pades';

/** Where revocation data comes from (the operator's policy and timeouts apply to both). */
export interface RevocationSources {
  /** GETs a CRL (DER) from a distribution point. */
  fetchCrl: (url: string) => Promise<Buffer>;
  /** POSTs an OCSP request to a responder; the DER answer. */
  fetchOcsp: (url: string, request: Buffer) => Promise<Buffer>;
  now: () => Date;
}

/** What goes into a Document Security Store. */
export interface ValidationData {
  certificates: Buffer[];
  crls: Buffer[];
  ocspResponses: Buffer[];
}

const key = (der: Buffer) => der.toString('base64');

/**
 * The validation data of `certificates` (a seal's chain, the authorities' chains): for each certificate
 * that can be revoked (one not its own issuer), an OCSP answer from the responder it names, checked,
 * when its issuer is among them; else — or when every responder fails — the CRLs of its distribution
 * points, each address fetched once. A certificate found revoked fails it all (nothing is sealed with
 * a revoked certificate's word); one with neither an answer nor a CRL fails it with the reasons.
 */
export async function validationData(
  certificates: Buffer[],
  sources: RevocationSources,
): Promise<ValidationData> {
  const { pkijs, asn1js } = await cmsLibraries();
  const unique = [...new Map(certificates.map((c) => [key(c), c])).values()];
  const parsed = unique.map((der) => ({
    der,
    cert: new pkijs.Certificate({ schema: firstValue(asn1js, der) }),
  }));
  const responders: Buffer[] = [];
  const ocspResponses: Buffer[] = [];
  const crlUrls = new Set<string>();
  for (const { der, cert } of parsed) {
    if (cert.issuer.isEqual(cert.subject)) continue;
    const issuer = parsed.find((p) => p.der !== der && p.cert.subject.isEqual(cert.issuer));
    const failures: string[] = [];
    const responderUrls = issuer ? await ocspAddresses(der) : [];
    let answered = false;
    for (const url of responderUrls) {
      try {
        const question = await ocspQuestion(der, issuer!.der);
        const answer = await sources.fetchOcsp(url, question.request);
        responders.push(...(await question.check(answer, sources.now())).certificates);
        ocspResponses.push(answer);
        answered = true;
        break;
      } catch (err) {
        if (err instanceof CertificateNotGood) throw err;
        failures.push(`${url}: ${(err as Error).message}`);
      }
    }
    if (answered) continue;
    const crls = await crlAddresses(der);
    if (crls.length === 0 && failures.length > 0)
      throw new Error(`no revocation data for a certificate: ${failures.join('; ')}`);
    for (const url of crls) crlUrls.add(url);
  }
  const crls: Buffer[] = [];
  for (const url of crlUrls) crls.push(await sources.fetchCrl(url));
  const all = [...unique, ...responders];
  return { certificates: [...new Map(all.map((c) => [key(c), c])).values()], crls, ocspResponses };
}
