import { ChevronDown, ChevronRight } from 'lucide-react';
import { memo, useMemo, useState } from 'react';
import { childCount, childPath, initialExpansion, isContainer, JSON_PAGE_SIZE, ROOT_PATH, type JsonPath } from './json-expansion';

/** Strings longer than this are cut until clicked, so one huge value does not make a huge row. */
const STRING_PREVIEW_CHARS = 300;

/**
 * A collapsible JSON tree built from React text nodes only (captured data never becomes markup).
 * Children are rendered only while their parent is open, 100 at a time, so a body of any size
 * paints as fast as a small one.
 */
export function JsonTree({ value, label }: { value: unknown; label?: string }) {
  const open = useMemo(() => initialExpansion(value), [value]);
  return (
    <div className="json-tree" role="tree" aria-label={label ?? 'JSON'}>
      <JsonNode name={undefined} value={value} path={ROOT_PATH} depth={0} open={open} last />
    </div>
  );
}

interface NodeProps {
  name: string | number | undefined;
  value: unknown;
  path: JsonPath;
  depth: number;
  open: ReadonlySet<JsonPath>;
  last: boolean;
}

const JsonNode = memo(function JsonNode({ name, value, path, depth, open, last }: NodeProps) {
  const indent = { paddingLeft: `${depth * 16}px` };
  if (!isContainer(value)) {
    return (
      <div className="json-row" role="treeitem" aria-level={depth + 1} style={indent}>
        <span className="json-toggle-space" />
        <Key name={name} />
        <Primitive value={value} />
        {!last && <span className="json-punct">,</span>}
      </div>
    );
  }
  return <ContainerNode name={name} value={value} path={path} depth={depth} open={open} last={last} />;
});

function ContainerNode({ name, value, path, depth, open, last }: NodeProps & { value: Record<string, unknown> | unknown[] }) {
  const [expanded, setExpanded] = useState(() => open.has(path));
  const [shown, setShown] = useState(JSON_PAGE_SIZE);
  const array = Array.isArray(value);
  const count = childCount(value);
  const [opening, closing] = array ? ['[', ']'] : ['{', '}'];
  const indent = { paddingLeft: `${depth * 16}px` };

  if (count === 0) {
    return (
      <div className="json-row" role="treeitem" aria-level={depth + 1} style={indent}>
        <span className="json-toggle-space" />
        <Key name={name} />
        <span className="json-punct">{opening}{closing}</span>
        {!last && <span className="json-punct">,</span>}
      </div>
    );
  }

  const entries: Array<[string | number, unknown]> = array
    ? (value as unknown[]).slice(0, expanded ? shown : 0).map((v, i) => [i, v])
    : Object.entries(value).slice(0, expanded ? shown : 0);

  return (
    <div role="treeitem" aria-level={depth + 1} aria-expanded={expanded}>
      <div className="json-row" style={indent}>
        <button
          type="button"
          className="json-toggle"
          aria-label={expanded ? 'Collapse' : 'Expand'}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? <ChevronDown size={12} aria-hidden="true" /> : <ChevronRight size={12} aria-hidden="true" />}
        </button>
        <Key name={name} />
        <span className="json-punct">{opening}</span>
        {!expanded && (
          <button type="button" className="json-collapsed" onClick={() => setExpanded(true)}>
            {array ? `${count} ${count === 1 ? 'item' : 'items'}` : `${count} ${count === 1 ? 'key' : 'keys'}`}
          </button>
        )}
        {!expanded && <span className="json-punct">{closing}{last ? '' : ','}</span>}
      </div>
      {expanded && (
        <>
          <div role="group">
            {entries.map(([key, child], index) => (
              <JsonNode
                key={key}
                name={key}
                value={child}
                path={childPath(path, key)}
                depth={depth + 1}
                open={open}
                last={index === count - 1}
              />
            ))}
          </div>
          {shown < count && (
            <div className="json-row" style={{ paddingLeft: `${(depth + 1) * 16}px` }}>
              <span className="json-toggle-space" />
              <button type="button" className="json-more" onClick={() => setShown(shown + JSON_PAGE_SIZE)}>
                Show {Math.min(JSON_PAGE_SIZE, count - shown)} more ({(count - shown).toLocaleString('en-US')} left)
              </button>
            </div>
          )}
          <div className="json-row" style={indent}>
            <span className="json-toggle-space" />
            <span className="json-punct">{closing}{last ? '' : ','}</span>
          </div>
        </>
      )}
    </div>
  );
}

/** An object key in quotes; an array index bare and faint, as browser consoles show it. */
function Key({ name }: { name: string | number | undefined }) {
  if (name === undefined) return null;
  if (typeof name === 'number') {
    return (
      <>
        <span className="json-index">{name}</span>
        <span className="json-punct">: </span>
      </>
    );
  }
  return (
    <>
      <span className="json-key">{JSON.stringify(String(name))}</span>
      <span className="json-punct">: </span>
    </>
  );
}

function Primitive({ value }: { value: unknown }) {
  const [full, setFull] = useState(false);
  if (typeof value === 'string') {
    const text = JSON.stringify(value);
    if (text.length <= STRING_PREVIEW_CHARS || full) return <span className="json-string">{text}</span>;
    return (
      <span className="json-string">
        {text.slice(0, STRING_PREVIEW_CHARS)}
        <button type="button" className="json-more" onClick={() => setFull(true)}>
          … {(text.length - STRING_PREVIEW_CHARS).toLocaleString('en-US')} more characters
        </button>
      </span>
    );
  }
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-boolean">{String(value)}</span>;
  if (value === null) return <span className="json-null">null</span>;
  // Values that are not JSON (undefined in a metadata object built by an SDK) are shown, not dropped.
  return <span className="json-null">{String(value)}</span>;
}
