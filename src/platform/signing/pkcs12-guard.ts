import { Worker } from 'node:worker_threads';

/**
 * How long opening an uploaded PKCS#12 file may take. A file sets its own key-derivation work (the
 * iteration counts of its MAC and of each encrypted bag): a seal's takes milliseconds, while one asking
 * for two billion rounds would hold the event loop for hours. Opening it first in a worker thread,
 * stopped at this limit, keeps such a file from ever reaching the service's own thread.
 */
export const PKCS12_OPEN_LIMIT_MS = 2_000;

// Plain CommonJS run by the worker: opens the file as readPkcs12 does (node-forge), says how it went.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const forge = require(workerData.forge);
try {
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(workerData.p12).toString('binary')));
  forge.pkcs12.pkcs12FromAsn1(asn1, false, workerData.password);
  parentPort.postMessage('opens');
} catch {
  parentPort.postMessage('fails');
}
`;

/**
 * Whether a PKCS#12 file opens with `password` within `limitMs` (`opens`), fails to within it (`fails`:
 * readPkcs12 then says why, as quickly), or takes longer (`too slow`: it must not be opened here).
 */
export function pkcs12OpenTime(
  p12: Buffer,
  password: string,
  limitMs = PKCS12_OPEN_LIMIT_MS,
): Promise<'opens' | 'fails' | 'too slow'> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { p12: new Uint8Array(p12), password, forge: require.resolve('node-forge') },
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
    });
    let settled = false;
    const settle = (verdict: 'opens' | 'fails' | 'too slow') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(verdict);
    };
    const timer = setTimeout(() => settle('too slow'), limitMs);
    worker.on('message', (verdict: 'opens' | 'fails') => settle(verdict));
    // A worker that runs out of its memory or stops on its own has not shown the file opens.
    worker.on('error', () => settle('fails'));
    worker.on('exit', () => settle('fails'));
  });
}
