import { describe, expect, it, vi } from "vitest";

import { contactNotices } from "~/content/contact-form";
import { trackContactSubmit } from "~/lib/contact/analytics";
import { runContactServerAction } from "~/lib/contact/client-action";
import { formDataToRecord, messageLength } from "~/lib/contact/form-data";

describe("trackContactSubmit", () => {
  it("fires the spec's form_submit event when gtag exists", () => {
    const gtag = vi.fn();
    trackContactSubmit({ gtag } as unknown as Window);
    expect(gtag).toHaveBeenCalledExactlyOnceWith("event", "form_submit", {
      event_category: "Contact",
      event_label: "Contact Form Submission",
    });
  });
  it("does nothing without gtag, and never throws when gtag does", () => {
    expect(() => trackContactSubmit({} as Window)).not.toThrow();
    expect(() => trackContactSubmit(undefined)).not.toThrow();
    const broken = vi.fn(() => {
      throw new Error("blocked");
    });
    expect(() => trackContactSubmit({ gtag: broken } as unknown as Window)).not.toThrow();
  });
});

describe("formDataToRecord", () => {
  it("keeps single values as they are and repeated ones as lists", () => {
    const data = new FormData();
    data.append("name", "Ada");
    data.append("tag", "a");
    data.append("tag", "b");
    expect(formDataToRecord(data)).toEqual({ name: "Ada", tag: ["a", "b"] });
  });
});

describe("messageLength", () => {
  it("counts characters, a line break once whatever its form", () => {
    expect(messageLength("")).toBe(0);
    expect(messageLength("hello")).toBe(5);
    expect(messageLength("a\r\nb\nc\rd")).toBe(7);
  });
});

describe("runContactServerAction", () => {
  it("passes the server's answer through", async () => {
    const answer = { notice: { kind: "success" as const, title: "t", description: "d" } };
    expect(await runContactServerAction(async () => answer)).toBe(answer);
  });
  it("turns a network failure into the error notice instead of the error screen", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const answer = await runContactServerAction(async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(answer).toEqual({ notice: { kind: "error", ...contactNotices.sendFailed } });
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
