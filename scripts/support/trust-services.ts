// A local PKI (CA with CRL, time-stamping authority, CA-issued seal) for the signing tests and benches.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A real public-key infrastructure on this machine for the signing tests, made with OpenSSL: a test CA
 * with a CRL, a time-stamping authority (RFC 3161, `openssl ts -reply` behind an HTTP handler), and a
 * seal certificate the CA issued (PKCS#12) whose CRL distribution point is served here too. Everything
 * listens on 127.0.0.1 only.
 */
export interface SealOptions {
  days?: number;
  keyUsage?: string;
  crl?: boolean;
  chain?: boolean;
}

export interface TrustServices {
  dir: string;
  /** POST a TimeStampReq here. */
  tsaUrl: string;
  /** A second authority on the same server that always fails (HTTP 503): for the fallback list. */
  brokenTsaUrl: string;
  crlUrl: string;
  /** The CA's certificate (PEM file), for `openssl … -CAfile`. */
  caFile: string;
  /** The TSA's certificate (PEM file), for `openssl ts -verify -untrusted`. */
  tsaCertFile: string;
  /** The CA-issued seal: PKCS#12 and its passphrase. */
  seal: { p12: Buffer; passphrase: string };
  /** The OCSP responder the seals name (signed by a responder certificate the CA delegated to). */
  ocspUrl: string;
  /** Timestamp requests answered and refused; CRLs and OCSP answers served. */
  counts: { stamped: number; refused: number; crls: number; ocsp: number };
  /**
   * Another seal the test CA issues: `days` valid, with `keyUsage` (OpenSSL's syntax); `crl: false`
   * names the OCSP responder only, `chain: false` leaves the CA's certificate out of the file.
   */
  issueSeal(cn: string, opts?: SealOptions): { p12: Buffer; passphrase: string; name: string };
  /** Revokes a seal the CA issued (by its `name`): the responder and a new CRL say so from now on. */
  revoke(name: string): void;
  /** While true the working authority answers 503 too. */
  down: boolean;
  /** While true the OCSP responder answers 503. */
  ocspDown: boolean;
  close(): Promise<void>;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A line of the CA's index (OpenSSL's `ca` database) for a certificate it issued: what `ocsp` reads. */
function indexLine(dir: string, name: string): string {
  const out = execFileSync(
    'openssl',
    ['x509', '-in', `${name}.pem`, '-noout', '-serial', '-enddate', '-subject', '-nameopt', 'compat'],
    { cwd: dir, encoding: 'utf8' },
  );
  const serial = /serial=([0-9A-F]+)/.exec(out)![1]!;
  const end = new Date(/notAfter=(.+)/.exec(out)![1]!);
  const subject = /subject=(.+)/.exec(out)![1]!.trim();
  return `V\t${utcTime(end)}\t\t${serial}\tunknown\t${subject}\n`;
}

/** YYMMDDHHMMSSZ, as the CA's index writes times. */
const utcTime = (d: Date) => `${d.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`;

function makePki(dir: string, base: string) {
  const crlUrl = `${base}/ca.crl`;
  const subject = (cn: string) => ['-subj', `/CN=${cn}/O=ActionDesk Tests`];
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '3650',
    ...subject('ActionDesk Test CA'),
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const issue = (name: string, cn: string, extensions: string, days = 3650) => {
    fs.writeFileSync(path.join(dir, `${name}-ext.cnf`), extensions);
    openssl(dir, [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      ...subject(cn),
    ]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      String(days),
      '-extfile',
      `${name}-ext.cnf`,
      '-out',
      `${name}.pem`,
    ]);
  };
  const common = `subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\ncrlDistributionPoints=URI:${crlUrl}\n`;
  // Seals name the OCSP responder too (and the CRL as a fallback); the TSA names the CRL only.
  const sealExtensions = `${common}authorityInfoAccess=OCSP;URI:${base}/ocsp\n`;
  issue(
    'ocsp',
    'ActionDesk Test OCSP',
    'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,OCSPSigning\nnoCheck=ignored\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n',
  );
  issue(
    'tsa',
    'ActionDesk Test TSA',
    `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n${common}`,
  );
  issue(
    'seal',
    'Kantoor Peeters seal',
    `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n${sealExtensions}`,
  );
  openssl(dir, [
    'pkcs12',
    '-export',
    '-inkey',
    'seal.key',
    '-in',
    'seal.pem',
    '-certfile',
    'ca.pem',
    '-passout',
    'pass:test-seal',
    '-out',
    'seal.p12',
  ]);
  fs.writeFileSync(path.join(dir, 'tsaserial'), '01\n');
  fs.writeFileSync(
    path.join(dir, 'tsa.cnf'),
    [
      '[ tsa_config ]',
      `dir = ${dir}`,
      'serial = $dir/tsaserial',
      'crypto_device = builtin',
      'signer_cert = $dir/tsa.pem',
      'certs = $dir/ca.pem',
      'signer_key = $dir/tsa.key',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'index.txt'), indexLine(dir, 'seal'));
  fs.writeFileSync(path.join(dir, 'crlnumber'), '1000\n');
  fs.writeFileSync(
    path.join(dir, 'ca.cnf'),
    `[ca]\ndefault_ca=c\n[c]\ndir=${dir}\ndatabase=$dir/index.txt\ncrlnumber=$dir/crlnumber\ncertificate=$dir/ca.pem\nprivate_key=$dir/ca.key\ndefault_md=sha256\ndefault_crl_days=30\n`,
  );
  const publishCrl = () => {
    openssl(dir, ['ca', '-config', 'ca.cnf', '-gencrl', '-out', 'ca.crl.pem']);
    openssl(dir, ['crl', '-in', 'ca.crl.pem', '-outform', 'DER', '-out', 'ca.crl']);
  };
  publishCrl();
  let issued = 0;
  const revoke = (name: string) => {
    const line = indexLine(dir, name);
    const index = fs.readFileSync(path.join(dir, 'index.txt'), 'utf8');
    if (!index.includes(line)) throw new Error(`${name} is not in the CA's index`);
    const [, end, , serial, file, subject] = line.trimEnd().split('\t');
    const revoked = `R\t${end}\t${utcTime(new Date())}\t${serial}\t${file}\t${subject}\n`;
    fs.writeFileSync(path.join(dir, 'index.txt'), index.replace(line, revoked));
    publishCrl();
  };
  const issueSeal = (cn: string, opts: SealOptions = {}) => {
    const name = `seal${++issued}`;
    const usage = opts.keyUsage ?? 'digitalSignature,nonRepudiation';
    const extensions =
      opts.crl === false
        ? `subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\nauthorityInfoAccess=OCSP;URI:${base}/ocsp\n`
        : sealExtensions;
    issue(
      name,
      cn,
      `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,${usage}\n${extensions}`,
      opts.days,
    );
    fs.appendFileSync(path.join(dir, 'index.txt'), indexLine(dir, name));
    openssl(dir, [
      'pkcs12',
      '-export',
      '-inkey',
      `${name}.key`,
      '-in',
      `${name}.pem`,
      ...(opts.chain === false ? [] : ['-certfile', 'ca.pem']),
      '-passout',
      'pass:another-seal',
      '-out',
      `${name}.p12`,
    ]);
    return { p12: fs.readFileSync(path.join(dir, `${name}.p12`)), passphrase: 'another-seal', name };
  };
  return { issueSeal, revoke };
}

export async function startTrustServices(): Promise<TrustServices> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actiondesk-pki-'));
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { issueSeal, revoke } = makePki(dir, base);
  const services: TrustServices = {
    dir,
    tsaUrl: `${base}/tsa`,
    brokenTsaUrl: `${base}/broken-tsa`,
    crlUrl: `${base}/ca.crl`,
    caFile: path.join(dir, 'ca.pem'),
    tsaCertFile: path.join(dir, 'tsa.pem'),
    seal: { p12: fs.readFileSync(path.join(dir, 'seal.p12')), passphrase: 'test-seal' },
    ocspUrl: `${base}/ocsp`,
    counts: { stamped: 0, refused: 0, crls: 0, ocsp: 0 },
    issueSeal,
    revoke,
    down: false,
    ocspDown: false,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) =>
        server.close(() => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        }),
      );
    },
  };
  // One reply at a time: each rewrites the serial file.
  let queue: Promise<unknown> = Promise.resolve();
  let n = 0;
  /** `openssl ocsp` as the responder, one request at a time: it reads the CA's index as it is now. */
  const answerOcsp = (request: Buffer, res: http.ServerResponse) => {
    const id = ++n;
    const query = path.join(dir, `o${id}.req`);
    const reply = path.join(dir, `o${id}.resp`);
    queue = queue.then(async () => {
      try {
        fs.writeFileSync(query, request);
        await run('openssl', [
          'ocsp',
          '-index',
          path.join(dir, 'index.txt'),
          '-CA',
          path.join(dir, 'ca.pem'),
          '-rsigner',
          path.join(dir, 'ocsp.pem'),
          '-rkey',
          path.join(dir, 'ocsp.key'),
          '-reqin',
          query,
          '-respout',
          reply,
          '-ndays',
          '1',
        ]);
        services.counts.ocsp++;
        res.writeHead(200, { 'content-type': 'application/ocsp-response' });
        res.end(fs.readFileSync(reply));
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end((err as Error).message);
      }
    });
  };
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/ca.crl') {
        services.counts.crls++;
        res.writeHead(200, { 'content-type': 'application/pkix-crl' });
        res.end(fs.readFileSync(path.join(dir, 'ca.crl')));
        return;
      }
      if (req.method === 'POST' && req.url === '/ocsp' && !services.ocspDown) {
        answerOcsp(Buffer.concat(chunks), res);
        return;
      }
      if (req.method !== 'POST' || req.url !== '/tsa' || services.down) {
        services.counts.refused++;
        res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable');
        return;
      }
      const id = ++n;
      const query = path.join(dir, `q${id}.tsq`);
      const reply = path.join(dir, `r${id}.tsr`);
      queue = queue.then(async () => {
        try {
          fs.writeFileSync(query, Buffer.concat(chunks));
          await run('openssl', [
            'ts',
            '-reply',
            '-queryfile',
            query,
            '-config',
            path.join(dir, 'tsa.cnf'),
            '-section',
            'tsa_config',
            '-out',
            reply,
          ]);
          services.counts.stamped++;
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' });
          res.end(fs.readFileSync(reply));
        } catch (err) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end((err as Error).message);
        }
      });
    });
  });
  return services;
}
