import type { FastifyBaseLogger } from 'fastify';
import { BYTES_PER_MB } from '@spyglass/protocol';
import type { Db } from '../db/database';
import { randomToken, sha256 } from '../lib/crypto';
import type { Mailer } from '../plugins/mail';
import { insertEmailToken } from '../repositories/email-tokens.repository';
import { claimJobRun, findReportAccounts, findReportDevices, sumUsageBetween } from '../repositories/usage.repository';
import { readSettings } from '../repositories/users.repository';
import { startPeriodicJob, type PeriodicJob } from './periodic-job';
import { rowsById } from './rows-by-id';

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
/** An unsubscribe link works for a year. */
const UNSUBSCRIBE_TTL_MS = 365 * DAY_MS;
const PAGE = 500;
const TOP_DEVICES = 3;
export const USAGE_REPORT_JOB = 'weekly-usage-report';
/** How often a node asks whether this week's report is due: cheap (one insert that usually conflicts). */
export const USAGE_REPORT_CHECK_MS = 60 * 60 * 1000;

export interface UsageReportDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  now(): number;
  log: FastifyBaseLogger;
}

/** The ISO week (e.g. 2026-W23) of an instant: the period the report's lock is claimed for. */
export function isoWeek(ms: number): string {
  const date = new Date(ms);
  const day = (date.getUTCDay() + 6) % 7;
  const thursday = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - day + 3);
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * Mails each account that wants it (settings.wantsUsageReport) its last 7 days: requests,
 * traffic, devices and the busiest ones. Once per ISO week across every node: the node whose
 * insert of the week's `job_runs` row succeeds sends; the others skip. Answers how many were sent
 * (null: another node or an earlier run had this week).
 */
export async function runUsageReport(deps: UsageReportDeps): Promise<number | null> {
  const now = deps.now();
  if (!(await claimJobRun(deps.db, USAGE_REPORT_JOB, isoWeek(now), now))) return null;
  const from = now - WEEK_MS;
  let sent = 0;
  for await (const account of rowsById((after, size) => findReportAccounts(deps.db, after, size), PAGE)) {
    if (!readSettings(account).wantsUsageReport) continue;
    try {
      await mailReport(deps, account, from, now);
      sent += 1;
    } catch (err) {
      deps.log.error({ err, userId: account.id }, 'weekly usage report failed');
    }
  }
  return sent;
}

async function mailReport(deps: UsageReportDeps, account: { id: string; email: string }, from: number, to: number): Promise<void> {
  const usage = await sumUsageBetween(deps.db, account.id, from, to);
  const devices = await findReportDevices(deps.db, account.id, from, to, TOP_DEVICES);
  const token = randomToken();
  await insertEmailToken(deps.db, account.id, 'usage_report', sha256(token), UNSUBSCRIBE_TTL_MS, to);
  const top = devices.busiest.map((d, i) => `  ${i + 1}. ${deviceName(d)}: ${d.items.toLocaleString('en-US')} requests`);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  await deps.mailer.send({
    to: account.email,
    subject: `Your Spyglass week: ${usage.count.toLocaleString('en-US')} requests`,
    text: [
      `Your Spyglass usage from ${day(from)} to ${day(to)}:`,
      '',
      `Requests: ${usage.count.toLocaleString('en-US')}`,
      `Traffic: ${(usage.size / BYTES_PER_MB).toLocaleString('en-US', { maximumFractionDigits: 2 })} MB`,
      `Devices: ${devices.total.toLocaleString('en-US')}`,
      ...(top.length > 0 ? ['', 'Top devices:', ...top] : []),
      '',
      `Usage by hour: ${deps.publicUrl}/settings#usage`,
      `Stop these weekly reports: ${deps.publicUrl}/v1/usage-report/unsubscribe?token=${token}`,
    ].join('\n'),
  });
}

function deviceName(d: { id: string; nameOverride: string | null; info: string }): string {
  if (d.nameOverride) return d.nameOverride;
  try {
    const info = JSON.parse(d.info) as { name?: string; model?: string };
    return info.name ?? info.model ?? d.id;
  } catch {
    return d.id;
  }
}

/** Checks every hour whether this week's report is due (the first check of a new week sends it). */
export function startUsageReportJob(deps: UsageReportDeps & { intervalMs?: number }): PeriodicJob<number | null> {
  return startPeriodicJob({
    name: 'weekly usage report run',
    intervalMs: deps.intervalMs ?? USAGE_REPORT_CHECK_MS,
    runAtStart: true,
    log: deps.log,
    async run() {
      const sent = await runUsageReport(deps);
      if (sent !== null) deps.log.info({ sent }, 'weekly usage reports sent');
      return sent;
    },
  });
}
