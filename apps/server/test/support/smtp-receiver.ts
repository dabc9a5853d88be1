import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
}

/**
 * A real SMTP server on a random local port that keeps every message it accepts, so tests read
 * verification and reset links from the mail the server actually sent (no mocked transport).
 */
export interface SmtpReceiver {
  /** For the server's `SMTP_URL`. */
  url: string;
  mails: ReceivedMail[];
  /**
   * Resolves with the first mail to `address` (already received or still to come) whose subject
   * matches, counting only mails received after the first `since` ones.
   */
  waitForMail(address: string, options?: { subject?: RegExp; since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((parsed) => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
        });
        for (const wake of waiters) wake();
        callback();
      }, (err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;


  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail(address, { subject, since = 0, timeoutMs = 15_000 } = {}) {
      const to = address.toLowerCase();
      const find = () => mails.slice(since).find((m) => m.to.includes(to) && (!subject || subject.test(m.subject)));
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find();
          if (!mail) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${address}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms (received: ${mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none'})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link of a mail whose path is `path` (e.g. `/verify-email`), with its `token` parameter. */
export function linkIn(mail: ReceivedMail, path: string): { url: URL; token: string } {
  const href = mail.text.match(/https?:\/\/\S+/g)?.map((h) => new URL(h)).find((u) => u.pathname === path);
  if (!href) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
  const token = href.searchParams.get('token');
  if (!token) throw new Error(`link ${href.href} has no token`);
  return { url: href, token };
}
