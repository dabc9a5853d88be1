/** The Spyglass mark: a lens with a signal sweep. Drawn in currentColor plus the accent. */
export function LogoMark({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" aria-hidden="true" className="logo-mark">
      <rect x="1" y="1" width="22" height="22" rx="6" fill="var(--accent)" />
      <circle cx="10.5" cy="10.5" r="5" stroke="var(--accent-contrast)" strokeWidth="2" />
      <path d="M14.2 14.2 18.5 18.5" stroke="var(--accent-contrast)" strokeWidth="2.2" strokeLinecap="round" />
      <path d="M8 10.5h1.2l.9-2 1.1 4 .9-2H13" stroke="var(--accent-contrast)" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function Logo({ size = 22 }: { size?: number }) {
  return (
    <span className="logo">
      <LogoMark size={size} />
      <span className="logo-word">Spyglass</span>
    </span>
  );
}
