import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's sender (MAIL FROM). */
  from: string;
  /** The From header as sent: display name and address (`"Peeters Advies" <desk@…>`). */
  fromHeader: { name: string; address: string };
  /** The Reply-To header's address, or '' without one. */
  replyTo: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The Message-ID header, as sent. */
  messageId: string;
  /** The message's own Content-Type (`multipart/alternative`: a text part and an HTML part). */
  contentType: string;
  /** The files sent with it, as the mail parser read them. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** The addresses an e-mail's HTML links to, in order (its `<a href>`s). */
export const linksIn = (html: string): string[] =>
  [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1] ?? '');

/** A real SMTP server on 127.0.0.1: keeps what it receives, and refuses the next N deliveries when told. */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  let refusals = 0;
  const unknown = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!unknown.has(address.address.toLowerCase())) return callback();
      const err = Object.assign(new Error('5.1.1 Recipient address rejected: User unknown'), {
        responseCode: 550,
      });
      callback(err);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (refusals > 0) {
            refusals--;
            const err = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
            callback(err);
            return;
          }
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            fromHeader: {
              name: mail.from?.value[0]?.name ?? '',
              address: mail.from?.value[0]?.address ?? '',
            },
            replyTo: mail.replyTo?.value[0]?.address ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            messageId: mail.messageId ?? '',
            contentType: (mail.headers.get('content-type') as { value?: string } | undefined)?.value ?? '',
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? '',
              contentType: a.contentType,
              content: a.content,
            })),
          });
          callback();
          for (const w of waiters.splice(0)) w();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Refuses the next `n` messages for now (451): a relay that is busy. */
    refuseNext(n: number) {
      refusals = n;
    },
    /** Refuses `address` for good (550 5.1.1 at RCPT TO): a mailbox that does not exist, a bounce. */
    refuseRecipient(address: string) {
      unknown.add(address.toLowerCase());
    },
    /** Resolves once `count` messages have arrived in total. */
    async waitFor(count: number): Promise<void> {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A real HTTP receiver (an SMS provider, a webhook endpoint): answers each request with the next status queued. */
export async function startHttpReceiver() {
  const received: ReceivedRequest[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const status = statuses.shift() ?? 200;
      if (status < 300) received.push({ headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status < 300 ? { id: `msg-${received.length}` } : { error: 'unavailable' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/send`,
    received,
    /** The next answers' statuses, in order (then 200). */
    answer(...codes: number[]) {
      statuses.push(...codes);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface WebhookRequest {
  headers: http.IncomingHttpHeaders;
  /** The body exactly as received (what the signature covers). */
  raw: string;
  body: Record<string, unknown>;
  /** When it arrived, on the app's clock if one was given. */
  at: Date;
}

type Behaviour = { status: number; location?: string; body?: string } | 'hang';

/**
 * A real webhook endpoint: records every request with its raw body, and answers each with the next
 * behaviour queued (a status, a redirect, or never answering), then 200.
 */
export async function startWebhookReceiver(now: () => Date = () => new Date()) {
  const received: WebhookRequest[] = [];
  const queued: Behaviour[] = [];
  const hanging = new Set<http.ServerResponse>();
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      raw += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, raw, body: JSON.parse(raw), at: now() });
      for (const w of waiters.splice(0)) w();
      const next = queued.shift() ?? { status: 200 };
      if (next === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(next.status, next.location ? { location: next.location } : {});
      res.end(next.body ?? (next.status < 300 ? 'ok' : 'nope'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Behaviours for the next requests, in order (then 200). */
    answer(...behaviours: Behaviour[]) {
      queued.push(...behaviours);
    },
    /** Answers the requests held by 'hang' so far with `status`. */
    release(status = 200) {
      for (const res of hanging) {
        res.writeHead(status);
        res.end(status < 300 ? 'ok' : 'nope');
      }
      hanging.clear();
    },
    /** Resolves once `count` requests have arrived (bounded by the test's timeout). */
    async waitFor(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
