// The peers the benches deliver messages to: a local SMTP server and a local HTTP SMS receiver.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A local SMTP server and SMS receiver that only count what they accept. */
export async function startPeers() {
  let mails = 0;
  let sms = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        mails++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      sms++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ok"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    env: {
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      SMS_PROVIDER_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/send`,
    },
    delivered: () => mails + sms,
    close: async () => {
      await new Promise<void>((r) => smtp.close(() => r()));
      await new Promise<void>((r) => receiver.close(() => r()));
    },
  };
}
