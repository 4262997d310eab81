// The peers the benches deliver messages to: a local SMTP server and a local HTTP SMS receiver.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on 127.0.0.1 that counts the messages it accepts, in all and per recipient. */
export async function countingMailbox() {
  const perRecipient = new Map<string, number>();
  let total = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        for (const r of session.envelope.rcptTo)
          perRecipient.set(r.address, (perRecipient.get(r.address) ?? 0) + 1);
        total++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    perRecipient,
    total: () => total,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A local SMTP server and SMS receiver that only count what they accept. */
export async function startPeers() {
  let sms = 0;
  const smtp = await countingMailbox();
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
      SMTP_URL: smtp.url,
      SMS_PROVIDER_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/send`,
    },
    delivered: () => smtp.total() + sms,
    close: async () => {
      await smtp.close();
      await new Promise<void>((r) => receiver.close(() => r()));
    },
  };
}
