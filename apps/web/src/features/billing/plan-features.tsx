import DOMPurify from 'dompurify';
import { Check } from 'lucide-react';

/** Only what a feature line needs: emphasis and links. Everything else is dropped, scripts above all. */
const ALLOWED = { ALLOWED_TAGS: ['strong', 'b', 'em', 'i', 'a', 'br', 'span'], ALLOWED_ATTR: ['href', 'target', 'rel'] };

/** A plan's features: HTML from the plans file (spec 000 §3), sanitised before it is shown. */
export function PlanFeatures({ features }: { features: string[] }) {
  return (
    <ul className="plan-features">
      {features.map((html) => (
        <li key={html}>
          <Check size={14} aria-hidden="true" className="plan-feature-icon" />
          <span dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html, ALLOWED) }} />
        </li>
      ))}
    </ul>
  );
}
