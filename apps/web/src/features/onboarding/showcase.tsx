import { useEffect, useState } from 'react';
import './showcase.css';

/** Illustrative rows of the showcase: what the dashboard looks like once a device sends traffic. */
const SHOWCASE_ROWS = [
  { method: 'GET', path: '/api/v1/profile', status: 200, ms: 84 },
  { method: 'POST', path: '/api/v1/cart/items', status: 201, ms: 132 },
  { method: 'GET', path: '/api/v1/products?page=2', status: 200, ms: 97 },
  { method: 'PUT', path: '/api/v1/settings', status: 500, ms: 412 },
  { method: 'GET', path: '/images/banner.webp', status: 304, ms: 21 },
];

/** Spec 000 §2.4: the showcase starts after 3 s and then shows one more sample request every second. */
const SHOWCASE_START_MS = 3000;
const SHOWCASE_EVERY_MS = 1000;
const SHOWCASE_VISIBLE = 6;

/** The showcase's rows: the first ones at once, then one more each second (the oldest scrolls away). */
function useShowcaseRows() {
  const [count, setCount] = useState(SHOWCASE_ROWS.length);
  useEffect(() => {
    let every: number | undefined;
    const start = window.setTimeout(() => {
      every = window.setInterval(() => setCount((n) => n + 1), SHOWCASE_EVERY_MS);
    }, SHOWCASE_START_MS);
    return () => {
      window.clearTimeout(start);
      window.clearInterval(every);
    };
  }, []);
  const first = Math.max(0, count - SHOWCASE_VISIBLE);
  return Array.from({ length: count - first }, (_, i) => ({ seq: first + i, ...SHOWCASE_ROWS[(first + i) % SHOWCASE_ROWS.length]! }));
}

/**
 * The animated demo dashboard of the onboarding welcome step and the connect screen (spec 000
 * §2.4, spec 002 'Sample data'): pure front end, nothing is sent or stored.
 */
export function Showcase({ label, className }: { label: string; className?: string }) {
  const rows = useShowcaseRows();
  return (
    <div className={`welcome-showcase${className ? ` ${className}` : ''}`} aria-hidden="true">
      <div className="showcase-bar"><span /><span /><span /><em>{label}</em></div>
      <div className="showcase-rows">
        {rows.map((row) => (
          <div key={row.seq} className="showcase-row" style={{ animationDelay: row.seq < SHOWCASE_ROWS.length ? `${row.seq * 120}ms` : undefined }}>
            <span className={`showcase-method is-${row.method.toLowerCase()}`}>{row.method}</span>
            <span className="showcase-path">{row.path}</span>
            <span className={`showcase-status is-${Math.floor(row.status / 100)}xx`}>{row.status}</span>
            <span className="showcase-ms">{row.ms} ms</span>
          </div>
        ))}
      </div>
    </div>
  );
}
