/**
 * A value the configuration leaves out (the controller's name, a processor): marked as missing,
 * in a dashed box that reads as a gap, never as a placeholder that could pass for the real value.
 */
export function NotPublished({ label }: { label: string }) {
  return (
    <span
      data-unpublished
      className="inline-block rounded-sm border border-dashed border-ink-500 bg-ink-100 px-2 py-0.5 text-sm font-semibold text-ink-800"
    >
      {label}
    </span>
  );
}
