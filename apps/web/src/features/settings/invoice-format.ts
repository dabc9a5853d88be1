import type { Invoice } from '@spyglass/protocol';

/** Spec 000 §9: an invoice's amount is amount_due (in the currency's minor unit) divided by 100. */
export function invoiceAmount(invoice: Pick<Invoice, 'amount_due' | 'currency'>, locale?: string): string {
  const amount = invoice.amount_due / 100;
  try {
    return amount.toLocaleString(locale, { style: 'currency', currency: invoice.currency.toUpperCase() });
  } catch {
    // A currency code the browser does not know still shows its amount.
    return `${amount.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${invoice.currency.toUpperCase()}`;
  }
}

/** Invoice times are unix seconds (spec 000 §3). */
export const invoiceDate = (seconds: number, locale?: string) =>
  new Date(seconds * 1000).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });

export const invoicePeriod = (invoice: Pick<Invoice, 'period_start' | 'period_end'>, locale?: string) =>
  `${invoiceDate(invoice.period_start, locale)} – ${invoiceDate(invoice.period_end, locale)}`;

/** Stripe's status names, as a person would say them. */
export function invoiceStatus(status: string | null): string {
  return status ? status[0]!.toUpperCase() + status.slice(1) : '—';
}
