import { describe, expect, it } from 'vitest';
import { invoiceAmount, invoiceDate, invoicePeriod, invoiceStatus } from './invoice-format';

describe('invoice formatting', () => {
  it('shows amount_due divided by 100 in the invoice currency', () => {
    expect(invoiceAmount({ amount_due: 1900, currency: 'usd' }, 'en-US')).toBe('$19.00');
    expect(invoiceAmount({ amount_due: 190_000, currency: 'eur' }, 'en-US')).toBe('€1,900.00');
    expect(invoiceAmount({ amount_due: 5, currency: 'usd' }, 'en-US')).toBe('$0.05');
  });

  it('keeps the amount of a currency code the browser does not know', () => {
    expect(invoiceAmount({ amount_due: 1234, currency: 'not-a-code' }, 'en-US')).toBe('12.34 NOT-A-CODE');
  });

  it('reads created and the period as unix seconds', () => {
    const start = Date.UTC(2026, 9, 1, 12) / 1000;
    const end = Date.UTC(2026, 10, 1, 12) / 1000;
    expect(invoiceDate(start, 'en-US')).toBe('Oct 1, 2026');
    expect(invoicePeriod({ period_start: start, period_end: end }, 'en-US')).toBe('Oct 1, 2026 – Nov 1, 2026');
  });

  it('names the status and shows a dash when there is none', () => {
    expect(invoiceStatus('paid')).toBe('Paid');
    expect(invoiceStatus('open')).toBe('Open');
    expect(invoiceStatus(null)).toBe('—');
  });
});
