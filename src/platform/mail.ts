import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from './logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends e-mail; throws when the message was not accepted (the job queue retries). */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/** SMTP through nodemailer, or, with no SMTP_URL, .eml files in DATA_DIR/outbox (logged). */
export function createMailer(config: Config['mail'], logger: Logger): Mailer {
  if (config.kind === 'smtp') {
    // Pooled: connections are kept and reused, not opened per message.
    const transport = nodemailer.createTransport({
      url: config.url,
      pool: true,
      maxConnections: 3,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      kind: 'smtp',
      async send(m) {
        const info = await transport.sendMail({ from: config.from, ...m });
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(m) {
      const info = await transport.sendMail({ from: config.from, ...m });
      const file = path.join(config.dir, `${fileStamp()}-mail.eml`);
      await mkdir(config.dir, { recursive: true });
      await writeFile(file, info.message as Buffer);
      logger.info({ to: m.to, subject: m.subject, file }, 'e-mail written to the outbox (no SMTP_URL)');
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/** A file name prefix that sorts by time and never collides. */
export function fileStamp(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
}
