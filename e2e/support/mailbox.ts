import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  /** Every http(s) URL in the text part, in order. */
  links: string[];
}

export interface Mailbox {
  /** Give this to the server as SMTP_URL. */
  smtpUrl: string;
  /** Every mail received so far, oldest first. */
  readonly mails: readonly ReceivedMail[];
  /** The first mail to `to` (received after `since` mails, if given) that matches; waits for it. */
  waitForMail(to: string, options?: { subject?: RegExp; since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP receiver on a random port: the server's mail travels the same path as in production. */
export async function startMailbox(): Promise<Mailbox> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          mails.push(toReceivedMail(parsed, to));
          waiters.forEach((wake) => wake());
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail(to, { subject, since = 0, timeoutMs = 15_000 } = {}) {
      const address = to.toLowerCase();
      const find = () => mails.slice(since).find((m) => m.to.includes(address) && (!subject || subject.test(m.subject)));
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
          const seen = mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join('\n  ') || '(none)';
          reject(new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms; received:\n  ${seen}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function toReceivedMail(parsed: ParsedMail, to: string[]): ReceivedMail {
  const text = parsed.text ?? '';
  return {
    to,
    subject: parsed.subject ?? '',
    text,
    links: text.match(/https?:\/\/[^\s<>"')]+/g) ?? [],
  };
}

/** The one link of `mail` whose path is `pathname` (e.g. /verify-email). */
export function linkTo(mail: ReceivedMail, pathname: string): URL {
  const link = mail.links.map((l) => new URL(l)).find((u) => u.pathname === pathname);
  if (!link) throw new Error(`mail "${mail.subject}" has no ${pathname} link; links: ${mail.links.join(', ') || '(none)'}`);
  return link;
}
