import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when `SMTP_URL` is set; otherwise the whole message goes to the log,
 * so that a self-hoster without mail can still follow verification and reset links.
 */
export function createMailer(smtpUrl: string | null, from: string, log: FastifyBaseLogger): Mailer {
  if (!smtpUrl) {
    return {
      async send(message) {
        log.info({ mail: message }, `Mail to ${message.to}: ${message.subject}\n${message.text}`);
      },
      close() {},
    };
  }
  // nodemailer is loaded on the first mail, not at start-up: most requests never send one.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      await (await transport).sendMail({ from, ...message });
    },
    close: () => {
      void transport?.then((t) => t.close());
    },
  };
}
