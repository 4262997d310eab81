import { webcrypto } from 'node:crypto';
import type { SafeHttpClient } from '../outbound/safe-http';
import { cmsLibraries, commonNameOf, firstValue } from './cms';

/** The time-stamping authorities (RFC 3161) signatures get their trusted time from, in the order tried. */
export interface TsaConfig {
  urls: readonly string[];
  /** HTTP Basic credentials for every URL that does not carry its own (`https://user:pass@host/`). */
  username?: string;
  password?: string;
  /** For each authority: the whole exchange, connection to last byte. */
  timeoutMs: number;
}

/** A timestamp token (RFC 3161 TimeStampToken: a CMS SignedData over a TSTInfo), checked. */
export interface TimestampToken {
  /** The token, DER: what a signature's unsigned attribute or a document timestamp holds. */
  der: Buffer;
  /** The authority's time (TSTInfo genTime). */
  time: Date;
  /** Who stamped: the signing certificate's common name. */
  authority: string;
  /** The certificates the token carries (the authority's, and its chain when sent), DER. */
  certificates: Buffer[];
  /** The authority's certificate, which signed the token (DER), when the token carries it. */
  signer: Buffer | null;
}

export class TimestampError extends Error {
  override name = 'TimestampError';
}

/** A timestamp answer is a few kilobytes; a larger one is not one. */
const MAX_REPLY_BYTES = 256 * 1024;

/** Where the URL holds credentials they are taken out of it (fetch would refuse them) and sent as Basic. */
function target(url: string, config: TsaConfig): { url: string; authorization?: string } {
  const u = new URL(url);
  const user = u.username ? decodeURIComponent(u.username) : config.username;
  const password = u.username ? decodeURIComponent(u.password) : config.password;
  u.username = '';
  u.password = '';
  return {
    url: u.href,
    ...(user
      ? { authorization: `Basic ${Buffer.from(`${user}:${password ?? ''}`).toString('base64')}` }
      : {}),
  };
}

/** An address as it may be shown in a message or log: without its credentials. */
export function shownUrl(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.href;
}

/**
 * Asks the configured authorities, in turn, for a timestamp on `data` (its SHA-256 is sent, never the
 * data). The answer is checked before it is used: granted, for our digest and our nonce, and signed by
 * the certificate it names. Throws TimestampError naming each authority and why it failed.
 */
export async function requestTimestamp(
  config: TsaConfig,
  http: SafeHttpClient,
  data: Uint8Array,
): Promise<TimestampToken> {
  const failures: string[] = [];
  for (const url of config.urls) {
    try {
      return await askOne(target(url, config), config.timeoutMs, http, data);
    } catch (err) {
      failures.push(`${shownUrl(url)}: ${(err as Error).message}`);
    }
  }
  throw new TimestampError(`no timestamp: ${failures.join('; ')}`);
}

async function askOne(
  to: { url: string; authorization?: string },
  timeoutMs: number,
  http: SafeHttpClient,
  data: Uint8Array,
): Promise<TimestampToken> {
  const { pkijs, asn1js } = await cmsLibraries();
  const imprint = await pkijs.MessageImprint.create('SHA-256', data);
  const nonce = webcrypto.getRandomValues(new Uint8Array(12));
  nonce[0] = (nonce[0]! & 0x7f) | 0x01; // positive, and no leading zero byte
  const query = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: imprint,
    certReq: true,
    nonce: new asn1js.Integer({ valueHex: nonce }),
  });
  const reply = await http.exchange('POST', to.url, {
    body: Buffer.from(query.toSchema().toBER(false)),
    headers: {
      'content-type': 'application/timestamp-query',
      accept: 'application/timestamp-reply',
      'user-agent': 'ActionDesk-Signing/1',
      ...(to.authorization ? { authorization: to.authorization } : {}),
    },
    timeoutMs,
    maxBodyBytes: MAX_REPLY_BYTES,
  });
  if (reply.status !== 200) throw new Error(`answered HTTP ${reply.status}`);
  const response = pkijs.TimeStampResp.fromBER(firstValue(asn1js, reply.bytes).toBER(false));
  const status = response.status.status;
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods)
    throw new Error(
      `refused the request (status ${status}${
        response.status.statusStrings?.length
          ? `: ${response.status.statusStrings.map((s) => s.valueBlock.value).join(' ')}`
          : ''
      })`,
    );
  const token = response.timeStampToken;
  if (!token) throw new Error('answered without a token');
  const checked = await checkToken(new Uint8Array(token.toSchema().toBER(false)), data);
  const sent = Buffer.from(nonce).toString('hex');
  if (checked.nonce !== sent) throw new Error('answered with another nonce');
  return checked.token;
}

/**
 * Reads and checks a timestamp token against the data it stamps: the digest it carries is the data's,
 * and its signature verifies with the certificate it names. Trust in that certificate is the reader's.
 */
export async function checkToken(
  der: Uint8Array,
  data: Uint8Array,
): Promise<{ token: TimestampToken; nonce: string | null }> {
  const { pkijs, asn1js } = await cmsLibraries();
  const info = new pkijs.ContentInfo({ schema: firstValue(asn1js, der) });
  if (info.contentType !== pkijs.ContentInfo.SIGNED_DATA) throw new Error('the token is not signed data');
  const signed = new pkijs.SignedData({ schema: info.content });
  const content = signed.encapContentInfo.eContent;
  if (!content) throw new Error('the token holds no TSTInfo');
  const tst = pkijs.TSTInfo.fromBER(new Uint8Array(content.getValue()));
  const ok = await signed
    .verify({ signer: 0, data: toArrayBuffer(data), checkChain: false, extendedMode: true })
    .catch((err: { message?: string; signatureVerified?: boolean | null }) => ({
      signatureVerified: false,
      message: err.message ?? String(err),
    }));
  if (!ok.signatureVerified)
    throw new Error(`the token does not verify (${'message' in ok ? ok.message : 'bad signature'})`);
  const signer = 'signerCertificate' in ok ? ok.signerCertificate : undefined;
  const certificates = (signed.certificates ?? []).flatMap((c) =>
    c instanceof pkijs.Certificate ? [Buffer.from(c.toSchema().toBER(false))] : [],
  );
  return {
    token: {
      der: Buffer.from(info.toSchema().toBER(false)),
      time: tst.genTime,
      authority: signer ? commonNameOf(signer.subject) : 'unknown',
      certificates,
      signer: signer ? Buffer.from(signer.toSchema().toBER(false)) : null,
    },
    nonce: tst.nonce ? Buffer.from(tst.nonce.valueBlock.valueHexView).toString('hex') : null,
  };
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
