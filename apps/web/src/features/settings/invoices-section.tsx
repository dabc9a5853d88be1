import { useQuery } from '@tanstack/react-query';
import { InvoicesResponse } from '@spyglass/protocol';
import { api } from '../../lib/api';
import { invoiceAmount, invoiceDate, invoicePeriod, invoiceStatus } from './invoice-format';
import { SettingsSection } from './settings-section';
import './invoices.css';

/** Spec 000 §2.5 Invoices: the payment provider's invoices, newest first; none when self-hosted. */
export function InvoicesSection() {
  const query = useQuery({ queryKey: ['billing', 'invoices'], queryFn: () => api.get('/billing/invoices', InvoicesResponse) });
  const invoices = query.data?.invoices;

  return (
    <SettingsSection title="Invoices" id="invoices">
      <div className="invoices-body">
        {query.error ? (
          <p className="invoices-error" role="alert">Failed to load invoices</p>
        ) : !invoices ? (
          <p className="invoices-note">Loading...</p>
        ) : invoices.length === 0 ? (
          <p className="invoices-note">No invoices yet</p>
        ) : (
          <table className="invoices-table">
            <thead>
              <tr><th scope="col">Date</th><th scope="col">Period</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col" aria-label="Invoice PDF" /></tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.id}>
                  <td>{invoiceDate(invoice.created)}</td>
                  <td>{invoicePeriod(invoice)}</td>
                  <td className="invoices-amount">{invoiceAmount(invoice)}</td>
                  <td><span className="invoices-status" data-status={invoice.status ?? ''}>{invoiceStatus(invoice.status)}</span></td>
                  <td className="invoices-pdf">
                    {invoice.invoice_pdf && <a href={invoice.invoice_pdf} target="_blank" rel="noopener noreferrer">Download PDF</a>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </SettingsSection>
  );
}
