/** A form's entries as the validator reads them; a repeated field keeps all its values. */
export function formDataToRecord(formData: FormData): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const key of new Set(formData.keys())) {
    const values = formData.getAll(key);
    record[key] = values.length === 1 ? values[0] : values;
  }
  return record;
}

/** The message length as the browser's maxLength counts it: a line break counts once. */
export function messageLength(value: string): number {
  return value.replace(/\r\n?/g, "\n").length;
}
