import type { Certificate, CRLDistributionPoints, GeneralName, InfoAccess } from 'pkijs';
import { commonNameOf, OID, parseCertificate } from './cms';
import { CertificateRevoked, ocspQuestion } from './ocsp';

const AIA = '1.3.6.1.5.5.7.1.1';
const AD_OCSP = '1.3.6.1.5.5.7.48.1';

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

interface Parsed {
  der: Buffer;
  cert: Certificate;
  name: string;
}

interface Plan extends Parsed {
  /** Its issuer among the certificates (found by name, confirmed by its signature), if there. */
  issuer: Parsed | null;
  ocsp: string[];
  crls: string[];
}

const key = (der: Buffer) => der.toString('base64');

/** The http(s) URIs among names a certificate gives (a URI is GeneralName type 6). */
const httpUris = (names: GeneralName[]): string[] =>
  names.flatMap((n) =>
    n.type === 6 && typeof n.value === 'string' && /^https?:\/\//i.test(n.value) ? [n.value] : [],
  );

/** The addresses of a certificate's OCSP responders (its authority information access). */
function ocspAddresses(cert: Certificate): string[] {
  const aia = cert.extensions?.find((e) => e.extnID === AIA)?.parsedValue as InfoAccess | undefined;
  return httpUris(
    (aia?.accessDescriptions ?? []).filter((d) => d.accessMethod === AD_OCSP).map((d) => d.accessLocation),
  );
}

/** The addresses of a certificate's CRL distribution points. */
function crlAddresses(cert: Certificate): string[] {
  const extension = cert.extensions?.find((e) => e.extnID === OID.crlDistributionPoints);
  const points = (extension?.parsedValue as CRLDistributionPoints | undefined)?.distributionPoints ?? [];
  return points.flatMap((point) =>
    httpUris(Array.isArray(point.distributionPoint) ? point.distributionPoint : []),
  );
}

/** Each certificate that can be revoked (not its own issuer), with its issuer and where to ask. */
async function plan(certificates: Buffer[]): Promise<Plan[]> {
  const unique = [...new Map(certificates.map((c) => [key(c), c])).values()];
  const parsed: Parsed[] = await Promise.all(
    unique.map(async (der) => {
      const cert = await parseCertificate(der);
      return { der, cert, name: commonNameOf(cert.subject as never) };
    }),
  );
  const plans: Plan[] = [];
  for (const p of parsed) {
    if (p.cert.issuer.isEqual(p.cert.subject)) continue;
    let issuer: Parsed | null = null;
    // By name, then by signature: a re-keyed or cross-certified authority has several of that name.
    for (const candidate of parsed.filter((c) => c !== p && c.cert.subject.isEqual(p.cert.issuer)))
      if (await p.cert.verify(candidate.cert).catch(() => false)) {
        issuer = candidate;
        break;
      }
    plans.push({ ...p, issuer, ocsp: ocspAddresses(p.cert), crls: crlAddresses(p.cert) });
  }
  return plans;
}

/**
 * The certificates among `certificates` whose revocation cannot be checked with what they carry: no CRL,
 * and no OCSP responder (or one, but not their issuer to ask it about them). Long-term validation (B-LT)
 * needs one or the other for each; an uploaded seal is checked with this before it is kept.
 */
export async function uncheckableCertificates(certificates: Buffer[]): Promise<string[]> {
  return (await plan(certificates))
    .filter((p) => p.crls.length === 0 && !(p.ocsp.length > 0 && p.issuer))
    .map((p) => p.name);
}

/**
 * The validation data of `certificates` (a seal's chain, the authorities' chains): for each certificate
 * that can be revoked, an OCSP answer from the responder it names, checked, when its issuer is among
 * them; else — or when no responder answers well — the CRLs of its distribution points, each address
 * fetched once. A certificate found revoked fails it all (nothing is sealed with a revoked certificate's
 * word); one left with neither an answer nor a CRL fails it, naming the certificate and the reasons.
 */
export async function validationData(
  certificates: Buffer[],
  sources: RevocationSources,
): Promise<ValidationData> {
  const responders: Buffer[] = [];
  const ocspResponses: Buffer[] = [];
  const crlUrls = new Set<string>();
  const plans = await plan(certificates);
  for (const p of plans) {
    const failures: string[] = [];
    let answered = false;
    for (const url of p.issuer ? p.ocsp : []) {
      try {
        const question = await ocspQuestion(p.cert, p.issuer!.cert);
        const answer = await sources.fetchOcsp(url, question.request);
        responders.push(...(await question.check(answer, sources.now())).certificates);
        ocspResponses.push(answer);
        answered = true;
        break;
      } catch (err) {
        if (err instanceof CertificateRevoked) throw err;
        failures.push(`${url}: ${(err as Error).message}`);
      }
    }
    if (answered) continue;
    if (p.crls.length === 0) {
      const why = failures.length
        ? failures.join('; ')
        : p.ocsp.length
          ? 'its issuer’s certificate is not in the chain, to ask its OCSP responder'
          : 'it names no OCSP responder and no CRL';
      throw new Error(`no revocation data for ${p.name}: ${why}`);
    }
    for (const url of p.crls) crlUrls.add(url);
  }
  const crls: Buffer[] = [];
  for (const url of crlUrls) crls.push(await sources.fetchCrl(url));
  const all = [...new Map(certificates.map((c) => [key(c), c])).values(), ...responders];
  return { certificates: [...new Map(all.map((c) => [key(c), c])).values()], crls, ocspResponses };
}
