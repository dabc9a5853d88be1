export function Spinner({ size = 16, label }: { size?: number; label?: string }) {
  return (
    <span
      className="spinner"
      style={{ width: size, height: size }}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
  );
}

/** Fills its container while something loads (the first account fetch, a lazy screen). */
export function LoadingScreen({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading-screen">
      <Spinner size={22} label={label} />
    </div>
  );
}
