import type { UndeliveredEntry } from "~/lib/contact/undelivered-format.server";

/**
 * One request as `retry` sees it: every pending copy with the same fingerprint (the same e-mail,
 * any case, and the same message) is one request, sent once.
 */
export interface PendingRequest {
  fingerprint: string;
  /** Every pending copy, in the file's order. */
  copies: UndeliveredEntry[];
  /** What is sent: the latest copy, the visitor's last word (a corrected name or phone). */
  latest: UndeliveredEntry;
  /**
   * A copy timed out or got an answer that could not be read: the function may have run, so the
   * request may have reached the agency already. `retry` leaves it alone unless told otherwise.
   */
  possiblyDelivered: boolean;
}

/** The pending copies as requests, in the order their first copy failed. */
export function pendingRequests(pending: readonly UndeliveredEntry[]): PendingRequest[] {
  const byFingerprint = new Map<string, UndeliveredEntry[]>();
  for (const entry of pending) {
    const copies = byFingerprint.get(entry.fingerprint);
    if (copies) copies.push(entry);
    else byFingerprint.set(entry.fingerprint, [entry]);
  }
  return [...byFingerprint].map(([fingerprint, copies]) => ({
    fingerprint,
    copies,
    latest: copies[copies.length - 1]!,
    possiblyDelivered: copies.some((copy) => copy.possiblyDelivered),
  }));
}

/** The requests `retry` sends, and those it holds back because they may have been delivered. */
export function retryPlan(
  requests: readonly PendingRequest[],
  includePossiblyDelivered: boolean,
): { send: PendingRequest[]; heldBack: PendingRequest[] } {
  const heldBack = includePossiblyDelivered ? [] : requests.filter((request) => request.possiblyDelivered);
  return { send: requests.filter((request) => !heldBack.includes(request)), heldBack };
}
