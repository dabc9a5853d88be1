import { POWER_FILTER_KEYS, POWER_FILTER_SYNTAX } from '@spyglass/protocol';
import { CircleHelp } from 'lucide-react';
import { useId } from 'react';
import { IconButton } from '../../../ui/button';

/**
 * The short help of the power filters: a native popover (light dismiss, Escape, top layer)
 * anchored under its button with CSS anchor positioning.
 */
export function FilterHelp() {
  const id = useId();
  const titleId = `${id}-title`;
  return (
    <>
      <IconButton label="Search filters" className="search-help-button" popoverTarget={id}>
        <CircleHelp size={15} aria-hidden="true" />
      </IconButton>
      <div id={id} popover="auto" className="search-help" role="dialog" aria-labelledby={titleId}>
        <h2 id={titleId} className="search-help-title">Search filters</h2>
        <p className="search-help-intro">Type them in the search bar; every filter must match.</p>
        <dl className="search-help-list">
          {[...POWER_FILTER_KEYS, ...POWER_FILTER_SYNTAX].map((line) => (
            <div key={line.example} className="search-help-line">
              <dt><code>{line.example}</code></dt>
              <dd>{line.help}</dd>
            </div>
          ))}
        </dl>
      </div>
    </>
  );
}
