import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { startSmtpReceiver, type SmtpReceiver } from '../../apps/server/test/support/smtp-receiver';
import { startServer, type RunningServer, type ServerOptions } from './server';

export interface E2eEnvironment {
  readonly server: RunningServer;
  readonly mailbox: SmtpReceiver;
  readonly browser: Browser;
}

type EnvironmentOptions = Omit<ServerOptions, 'smtpUrl'>;

/**
 * Registers beforeAll/afterAll hooks that give the test file its own SMTP receiver, its own server
 * (sending mail to that receiver) and one Chromium. Read the fields inside tests, not at import.
 * Options known only once earlier hooks ran (the address of a fake identity provider) can be
 * given as a function.
 */
export function useE2eEnvironment(options: EnvironmentOptions | (() => EnvironmentOptions) = {}): E2eEnvironment {
  let server: RunningServer | undefined;
  let mailbox: SmtpReceiver | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    mailbox = await startSmtpReceiver();
    const resolved = typeof options === 'function' ? options() : options;
    [server, browser] = await Promise.all([startServer({ ...resolved, smtpUrl: mailbox.url }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.close();
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started: use it inside a test or hook`);
    return value;
  };
  return {
    get server() { return ready(server, 'the server'); },
    get mailbox() { return ready(mailbox, 'the mailbox'); },
    get browser() { return ready(browser, 'the browser'); },
  };
}
