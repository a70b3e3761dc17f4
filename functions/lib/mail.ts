import { config } from './config';
import { log } from './log';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Mails "sent" by the local runtime, readable by tests and demos through `/@mail`. */
export const localOutbox: Mail[] = [];

/**
 * Sends an e-mail. No mail transport is wired yet: locally (MAIL_LOG=1) the mail is logged and kept
 * in the local outbox; elsewhere it is logged without its text.
 */
export async function sendMail(mail: Mail) {
  if (config().mailLog) {
    localOutbox.push(mail);
    log.info('mail', { to: mail.to, subject: mail.subject, text: mail.text });
    return;
  }
  log.warn('mail transport not configured', { to: mail.to, subject: mail.subject });
}
