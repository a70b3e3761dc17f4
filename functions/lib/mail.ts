import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { config } from './config';
import { log } from './log';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Mails "sent" by the local runtime, readable by tests and demos through `/@mail`. */
export const localOutbox: Mail[] = [];

let ses: SESv2Client | undefined;

/** Amazon SES (`ses:SendEmail`) from the identity in MAIL_FROM. */
async function sendWithSes(mail: Mail, from: string) {
  ses ??= new SESv2Client({ region: config().region });
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: from,
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: mail.text, Charset: 'UTF-8' } },
        },
      },
    }),
  );
}

/**
 * Sends an e-mail: locally (MAIL_LOG=1) it is logged and kept in the local outbox; on AWS it goes
 * out through SES from MAIL_FROM. Without either, it is logged without its text and dropped.
 */
export async function sendMail(mail: Mail) {
  const { mailLog, mailFrom } = config();
  if (mailLog) {
    localOutbox.push(mail);
    log.info('mail', { to: mail.to, subject: mail.subject, text: mail.text });
    return;
  }
  if (mailFrom) {
    await sendWithSes(mail, mailFrom);
    log.info('mail sent', { to: mail.to, subject: mail.subject });
    return;
  }
  log.warn('mail transport not configured', { to: mail.to, subject: mail.subject });
}
