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

/** The mailer, sending only what the capture does not keep. */
export function capturingMailer(inner: Mailer, capture: OutboundCapture, metrics?: Metrics): Mailer {
  return {
    kind: inner.kind,
    async send(message) {
      const job = runningJob();
      if (job && (await capture.mail(job, message))) {
        metrics?.messages.inc({ channel: 'email', mode: 'test' });
        return { messageId: `test:${message.key}` };
      }
      const sent = await inner.send(message);
      metrics?.messages.inc({ channel: 'email', mode: 'live' });
      return sent;
    },
    close: () => inner.close(),
  };
}

/** The SMS sender, sending only what the capture does not keep. */
export function capturingSms(inner: SmsSender, capture: OutboundCapture, metrics?: Metrics): SmsSender {
  return {
    kind: inner.kind,
    async send(message) {
      const job = runningJob();
      if (job && (await capture.sms(job, message))) {
        metrics?.messages.inc({ channel: 'sms', mode: 'test' });
        return { messageId: `test:${message.key}` };
      }
      const sent = await inner.send(message);
      metrics?.messages.inc({ channel: 'sms', mode: 'live' });
      return sent;
    },
  };
}
