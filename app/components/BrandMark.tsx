/** Decorative: the brand name sits next to it. */
export function BrandMark({ className = "size-9" }: { className?: string }) {
  return (
    <svg viewBox="0 0 36 36" className={className} aria-hidden="true" focusable="false">
      <rect width="36" height="36" rx="10" className="fill-accent-400" />
      <path
        d="M11 24 18 11l7 13"
        fill="none"
        className="stroke-ink-950"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="18" cy="11" r="2.6" className="fill-ink-950" />
      <circle cx="11" cy="24" r="2.6" className="fill-ink-950" />
      <circle cx="25" cy="24" r="2.6" className="fill-ink-950" />
    </svg>
  );
}
