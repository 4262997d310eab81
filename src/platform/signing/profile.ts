import { parseNetworks } from '../outbound/address-filter';
import { operatorPolicy, SafeHttpClient, type SafeHttpPolicy } from '../outbound/safe-http';
import type { PadesLevel } from './pades';
import type { PadesProfile } from './seal';
import { requestTimestamp, type TsaConfig } from './tsa';

/** A revocation list is rarely more than a few megabytes; a bigger answer is refused. */
const MAX_CRL_BYTES = 20 * 1024 * 1024;
/** An OCSP answer is a few kilobytes. */
const MAX_OCSP_BYTES = 256 * 1024;

/**
 * What sealing at the configured level needs: the time-stamping authorities (the operator's addresses,
 * reached under the operator's policy) and the revocation data (OCSP answers, CRLs) of the certificates
 * involved (the addresses they name, under revocationPolicy), each request bounded in time; a failure
 * fails the signing job, which is tried again later (never the signer's request, which only queued it).
 */
export function padesProfile(
  config: { level: PadesLevel; tsa: TsaConfig | null; revocationNetworks?: readonly string[] },
  now: () => Date = () => new Date(),
  http = new SafeHttpClient({ ...operatorPolicy, keepAlive: false }),
  named = new SafeHttpClient({
    ...revocationPolicy(config.revocationNetworks ?? []),
    keepAlive: false,
  }),
): PadesProfile {
  const tsa = config.tsa;
  const timeoutMs = tsa?.timeoutMs ?? 10_000;
  return {
    level: config.level,
    stamp: tsa ? (data) => requestTimestamp(tsa, http, data) : null,
    async fetchCrl(url) {
      const answer = await named.exchange('GET', url, {
        headers: { accept: 'application/pkix-crl', 'user-agent': 'ActionDesk-Signing/1' },
        timeoutMs,
        maxBodyBytes: MAX_CRL_BYTES,
      });
      if (answer.status !== 200) throw new Error(`the revocation list ${url} answered HTTP ${answer.status}`);
      return crlDer(answer.bytes, url);
    },
    async fetchOcsp(url, request) {
      const answer = await named.exchange('POST', url, {
        headers: {
          'content-type': 'application/ocsp-request',
          accept: 'application/ocsp-response',
          'user-agent': 'ActionDesk-Signing/1',
        },
        body: request,
        timeoutMs,
        maxBodyBytes: MAX_OCSP_BYTES,
      });
      if (answer.status !== 200) throw new Error(`answered HTTP ${answer.status}`);
      return answer.bytes;
    },
    now,
  };
}

/**
 * The policy for the OCSP responders and CRLs certificates name. An organisation's uploaded seal names
 * its own, so they are anyone's choice: public addresses only (plain http included: revocation data is
 * signed, and most authorities serve it over http), and the private networks the operator lists.
 */
function revocationPolicy(networks: readonly string[]): SafeHttpPolicy {
  return { allowHttp: true, allowPrivate: parseNetworks(networks.join(',')) };
}

/** A CRL as DER: served as DER, or as PEM (some authorities do). */
function crlDer(bytes: Buffer, url: string): Buffer {
  const text = bytes.subarray(0, 64).toString('latin1');
  if (text.includes('-----BEGIN X509 CRL-----')) {
    const body = /-----BEGIN X509 CRL-----([\s\S]*?)-----END X509 CRL-----/.exec(bytes.toString('latin1'));
    if (body) return Buffer.from(body[1]!.replace(/\s+/g, ''), 'base64');
  }
  if (bytes[0] !== 0x30) throw new Error(`the revocation list ${url} is not a CRL`);
  return bytes;
}

/** In words, for the log and /health: the level, and where its time comes from. */
export function padesDescription(config: { level: PadesLevel; tsa: TsaConfig | null }): string {
  if (!config.tsa) return `PAdES ${config.level} (no TSA_URL: no trusted timestamp)`;
  return `PAdES ${config.level} (timestamps from ${config.tsa.urls.length} authorit${config.tsa.urls.length === 1 ? 'y' : 'ies'})`;
}
