/** A value the configuration leaves out: a dashed gap, never a placeholder that passes for real. */
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
