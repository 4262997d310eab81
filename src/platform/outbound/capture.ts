import { type RunningJob, runningJob } from '../jobs/running';
import type { Metrics } from '../ops/metrics';
import type { Mailer, MailMessage } from './mail';
import type { SmsMessage, SmsSender } from './sms';

/**
 * Where the messages of test organisations stop (issue 31): every e-mail and SMS leaves through the
 * mailer and SMS sender that services.ts wraps with this, so a job of a test organisation cannot send one,
 * whichever module queued it. The job runs as it would (templates, codes, retries); its message is kept
 * for the test inbox instead.
 */
export interface OutboundCapture {
  /** Keeps the message when the job's organisation is a test organisation; answers whether it did. */
  mail(job: RunningJob, message: MailMessage): Promise<boolean>;
  sms(job: RunningJob, message: SmsMessage): Promise<boolean>;
}

/**
 * The door itself, for either channel: the running job's message is kept when the capture takes it (a
 * test organisation's), else sent; either way counted by channel and mode.
 */
async function handOver<M extends { key: string }, R>(
  channel: 'email' | 'sms',
  message: M,
  keep: (job: RunningJob, message: M) => Promise<boolean>,
  send: (message: M) => Promise<R>,
  metrics: Metrics | undefined,
): Promise<R | { messageId: string }> {
  const job = runningJob();
  if (job && (await keep(job, message))) {
    metrics?.messages.inc({ channel, mode: 'test' });
    return { messageId: `test:${message.key}` };
  }
  const sent = await send(message);
  metrics?.messages.inc({ channel, mode: 'live' });
  return sent;
}

/** The mailer, sending only what the capture does not keep. */
export function capturingMailer(inner: Mailer, capture: OutboundCapture, metrics?: Metrics): Mailer {
  return {
    kind: inner.kind,
    send: (message) =>
      handOver(
        'email',
        message,
        (job, m) => capture.mail(job, m),
        (m) => inner.send(m),
        metrics,
      ),
    close: () => inner.close(),
  };
}

/** The SMS sender, sending only what the capture does not keep. */
export function capturingSms(inner: SmsSender, capture: OutboundCapture, metrics?: Metrics): SmsSender {
  return {
    kind: inner.kind,
    send: (message) =>
      handOver(
        'sms',
        message,
        (job, m) => capture.sms(job, m),
        (m) => inner.send(m),
        metrics,
      ),
  };
}
