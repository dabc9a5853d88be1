import { BookOpen } from 'lucide-react';
import type { ReactNode } from 'react';
import { mdnHeaderUrl } from './mdn';

export interface KeyValueRow {
  key: string;
  value: ReactNode;
}

/** Two columns of name and value (headers, query, form fields, metadata). Values are text unless a caller passes a node. */
export function KeyValueTable({ rows, label, headers = false, empty = 'No data available' }: {
  rows: readonly KeyValueRow[];
  label: string;
  /** Header names get a Show on MDN link when MDN documents them. */
  headers?: boolean;
  empty?: string;
}) {
  if (rows.length === 0) return <p className="details-empty">{empty}</p>;
  return (
    <table className="kv-table" aria-label={label}>
      <tbody>
        {rows.map((row, index) => (
          <tr key={`${row.key}\u0000${index}`}>
            <th scope="row">
              <span className="kv-key">{row.key}</span>
              {headers && <MdnLink name={row.key} />}
            </th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MdnLink({ name }: { name: string }) {
  const href = mdnHeaderUrl(name);
  if (!href) return null;
  return (
    <a className="kv-mdn" href={href} target="_blank" rel="noopener noreferrer" title={`Show on MDN: ${name}`} aria-label={`Show on MDN: ${name}`}>
      <BookOpen size={12} aria-hidden="true" />
    </a>
  );
}

/** A metadata value as text: strings as they are, everything else as compact JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
