import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config';
import type { Logger } from '../ops/logger';

export interface MailMessage {
  /**
   * Stable for the message whatever the attempt (see messageKey in jobs/sending): its Message-ID is
   * `<key@domain of MAIL_FROM>`, so a relay that de-duplicates drops a copy sent again after an attempt
   * whose outcome was not known.
   */
  key: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with the message (a signer's signed copy). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /**
   * The organisation's own sender: the display name of `From` (its address stays MAIL_FROM, which the
   * relay is set up to send as) and where replies go. Absent or null: MAIL_FROM as it is, no Reply-To.
   */
  sender?: { name?: string | null; replyTo?: string | null };
}

/** Sends e-mail; throws when the message was not accepted (the job queue retries). */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/** SMTP through nodemailer, or, with no SMTP_URL, .eml files in DATA_DIR/outbox (logged). */
export function createMailer(config: Config['mail'], logger: Logger): Mailer {
  // What both transports send: the sender, and the Message-ID the message's key makes.
  const mail = ({ key, sender, ...m }: MailMessage) => ({
    from: sender?.name ? { name: sender.name, address: addressOf(config.from) } : config.from,
    ...(sender?.replyTo ? { replyTo: sender.replyTo } : {}),
    messageId: messageIdOf(key, config.from),
    ...m,
  });
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
        const info = await transport.sendMail(mail(m));
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(m) {
      const info = await transport.sendMail(mail(m));
      const file = await writeToOutbox(config.dir, 'mail.eml', info.message as Buffer);
      logger.info({ to: m.to, file }, 'e-mail written to the outbox (no SMTP_URL)');
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/** The address of MAIL_FROM, without its display name (`Kantoor <desk@kantoor.test>` → desk@kantoor.test). */
export function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
}

/** `<key@domain>`, the domain taken from the sender's address (MAIL_FROM). */
export function messageIdOf(key: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'actiondesk.invalid';
  return `<${key.replace(/[^A-Za-z0-9.-]/g, '-')}@${domain}>`;
}

/**
 * Writes a message to the outbox directory (no SMTP server or SMS provider configured), beside its name
 * first and renamed when complete: whoever reads the outbox (a developer, a test waiting for a message)
 * never reads half a message. Answers the file's path.
 */
export async function writeToOutbox(
  dir: string,
  kind: 'mail.eml' | 'sms.json',
  content: string | Buffer,
): Promise<string> {
  const file = path.join(dir, `${fileStamp()}-${kind}`);
  await mkdir(dir, { recursive: true });
  await writeFile(`${file}.partial`, content);
  await rename(`${file}.partial`, file);
  return file;
}

/** A file name prefix that sorts by time and never collides. */
function fileStamp(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
}
