import { afterAll, beforeAll, expect, it } from 'vitest';
import { runUsageReport, type UsageReportDeps } from '../src/jobs/usage-report';
import { describeApi, signUp, useTwoNodes, type TestServer } from './helpers';
import { TestDevice, itemId, logItem } from './device-protocol-client';
import { startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver';

/** Two server nodes on one database, each sending mail to the same receiver. */
describeApi('weekly usage report', () => {
  let smtp: SmtpReceiver;
  let clock = Date.now();
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(() => smtp?.close());
  // After the receiver's hooks: the nodes start once it listens and stop before it closes.
  const { nodeA, nodeB } = useTwoNodes(() => ({ now: () => clock, config: { smtpUrl: smtp.url } }));

  const depsOf = (node: TestServer): UsageReportDeps => ({
    db: node.app.ctx.db, mailer: node.app.ctx.mailer, publicUrl: node.url, now: () => clock, log: node.app.log,
  });
  const reportsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email) && m.subject.startsWith('Your Spyglass week'));

  it('reaches each account that wants it once per week across two nodes, and its unsubscribe link turns it off', async () => {
    const wanted = await signUp(nodeA.url);
    const unwanted = await signUp(nodeB.url);
    expect((await unwanted.api.post('/v1/user/settings', { settings: { wantsUsageReport: false } })).status).toBe(200);
    const { client } = await TestDevice.online(nodeA.url, wanted.profile.apiKey, itemId('dev'), { name: 'Ada’s iPhone' });
    client.sendItems(1, ['one', 'two', 'three'].map((m) => ({ ...logItem(m), createdAt: new Date(clock - 60_000).toISOString() })));
    expect(await client.ack(1)).toEqual({ type: 'ack', seq: 1 });
    await client.close();

    // Both nodes' timers fire at once: one claims the week, the other skips.
    const runs = await Promise.all([runUsageReport(depsOf(nodeA)), runUsageReport(depsOf(nodeB))]);
    expect(runs.filter((r) => r === null)).toHaveLength(1);
    const mail = await smtp.waitForMail(wanted.email, { subject: /^Your Spyglass week: 3 requests$/ });
    expect(mail.text).toContain('Requests: 3');
    expect(mail.text).toContain('Devices: 1');
    expect(mail.text).toContain('1. Ada’s iPhone: 3 requests');
    expect(mail.text).toMatch(/Traffic: [\d.]+ MB/);
    // The same week again, on either node: nothing more.
    expect(await runUsageReport(depsOf(nodeB))).toBeNull();
    expect(reportsTo(wanted.email)).toHaveLength(1);
    expect(reportsTo(unwanted.email)).toHaveLength(0);

    const link = /Stop these weekly reports: (\S+)/.exec(mail.text)![1]!;
    const unsubscribed = await fetch(link);
    expect(unsubscribed.status).toBe(200);
    expect(await unsubscribed.text()).toBe('You will no longer receive the weekly usage report. Turn it on again in Settings.');
    expect((await wanted.api.get('/v1/user')).body.settings.wantsUsageReport).toBe(false);
    expect((await fetch(link)).status).toBe(400);

    // Next week: a report run, but not for the accounts that turned it off.
    clock += 7 * 24 * 60 * 60 * 1000;
    expect(await runUsageReport(depsOf(nodeB))).not.toBeNull();
    expect(reportsTo(wanted.email)).toHaveLength(1);
  });
});
