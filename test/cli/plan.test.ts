import { describe, expect, it } from "vitest";

import type { ContactRequest } from "~/lib/contact/schema";
import { undeliveredEntry } from "~/lib/contact/undelivered-format.server";

import { pendingRequests, retryPlan } from "../../cli/leads/plan";

const request = (overrides: Partial<ContactRequest> = {}): ContactRequest => ({
  name: "Mary Jackson",
  email: "mary@example.com",
  phone: "",
  company: "",
  website: "",
  companySize: "",
  industry: "",
  message: "Automate our reports.",
  ...overrides,
});

const entry = (req: ContactRequest, reason: "http" | "timeout" = "http") =>
  undeliveredEntry(req, { reason }, { sink: "supabase", at: new Date("2026-02-03T04:05:06.000Z") });

describe("what retry sends: one request per fingerprint", () => {
  it("groups copies with the same e-mail (any case) and message, in the order their first copy failed", () => {
    const a1 = entry(request());
    const b = entry(request({ email: "grace@example.com" }));
    const a2 = entry(request({ email: "MARY@Example.com", phone: "+1 757 555 0101" }));
    const c = entry(request({ message: "Another message." }));
    const requests = pendingRequests([a1, b, a2, c]);
    expect(requests.map((r) => r.copies)).toEqual([[a1, a2], [b], [c]]);
    expect(requests.map((r) => r.fingerprint)).toEqual([a1.fingerprint, b.fingerprint, c.fingerprint]);
  });

  it("sends the latest copy: the visitor's last word on the same request", () => {
    const first = entry(request({ name: "Mary" }));
    const latest = entry(request({ name: "Mary Jackson", phone: "+1 757 555 0101" }));
    expect(pendingRequests([first, latest])[0]?.latest).toBe(latest);
  });

  it("a request is possibly delivered when any of its copies is", () => {
    const sure = entry(request());
    const maybe = entry(request(), "timeout");
    const other = entry(request({ email: "grace@example.com" }));
    expect(pendingRequests([sure, maybe, other]).map((r) => r.possiblyDelivered)).toEqual([true, false]);
  });

  it("holds back possibly delivered requests unless told to include them", () => {
    const requests = pendingRequests([
      entry(request(), "timeout"),
      entry(request({ email: "grace@example.com" })),
    ]);
    const byDefault = retryPlan(requests, false);
    expect(byDefault.send).toEqual([requests[1]]);
    expect(byDefault.heldBack).toEqual([requests[0]]);
    expect(retryPlan(requests, true)).toEqual({ send: requests, heldBack: [] });
  });
});
