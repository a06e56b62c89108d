import { describe, expect, it } from "vitest";

import { MAX_DISCARD_BYTES, readFormBody } from "~/lib/contact/body.server";

const post = (body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  new Request("http://127.0.0.1/?index", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("readFormBody", () => {
  it("reads a urlencoded form, keeping repeated fields as lists", async () => {
    const result = await readFormBody(
      post("name=Ada&email=a%40b.co&tag=1&tag=2", {
        "content-type": "application/x-www-form-urlencoded; charset=UTF-8",
      }),
    );
    expect(result).toEqual({ kind: "ok", fields: { name: "Ada", email: "a@b.co", tag: ["1", "2"] } });
  });

  it("reads a multipart form, files as files", async () => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("message", new File(["hello"], "m.txt"));
    const request = new Request("http://127.0.0.1/", { method: "POST", body: form });
    const result = await readFormBody(request);
    expect(result.kind).toBe("ok");
    if (result.kind !== "ok") return;
    expect(result.fields.name).toBe("Ada");
    expect(result.fields.message).toBeInstanceOf(File);
  });

  it.each([undefined, "application/json", "text/plain", "multipart/mixed"])(
    "refuses content type %s",
    async (type) => {
      const headers: Record<string, string> = type ? { "content-type": type } : {};
      expect(await readFormBody(post("{}", headers))).toEqual({ kind: "unsupported-type" });
    },
  );

  it("refuses a huge declared Content-Length without reading any of it", async () => {
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull() {
          pulled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const request = post(stream, {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(10 * 1024 * 1024),
    });
    expect(await readFormBody(request)).toEqual({ kind: "too-large", drained: false });
    expect(pulled).toBe(false);
  });

  it("refuses a slightly too large declared body, discarding it so the answer arrives whole", async () => {
    const body = "message=" + "a".repeat(17 * 1024);
    const withLength = post(body, {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(body.length),
    });
    expect(await readFormBody(withLength)).toEqual({ kind: "too-large", drained: true });
  });

  it("stops keeping a streamed body once it passes the limit, and gives up discarding past the cap", async () => {
    let chunks = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          chunks++;
          controller.enqueue(new Uint8Array(4096).fill(0x61));
          if (chunks > 10_000) controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = post(stream, { "content-type": "application/x-www-form-urlencoded" });
    expect(await readFormBody(request, 16 * 1024)).toEqual({ kind: "too-large", drained: false });
    // Read no further than the discard cap (plus a chunk), far from the 40 MB on offer.
    expect(chunks * 4096).toBeLessThanOrEqual(MAX_DISCARD_BYTES + 2 * 4096);
  });

  it("discards a streamed body a little over the limit completely", async () => {
    let chunks = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          chunks++;
          controller.enqueue(new Uint8Array(4096).fill(0x61));
          if (chunks >= 10) controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = post(stream, { "content-type": "application/x-www-form-urlencoded" });
    expect(await readFormBody(request, 16 * 1024)).toEqual({ kind: "too-large", drained: true });
  });

  it("accepts exactly the limit", async () => {
    const body = "message=" + "a".repeat(16 * 1024 - 8);
    const result = await readFormBody(post(body, { "content-type": "application/x-www-form-urlencoded" }));
    expect(result.kind).toBe("ok");
  });

  it("turns invalid UTF-8 into replacement characters instead of failing", async () => {
    const bytes = new Uint8Array([0x6e, 0x3d, 0xff, 0xfe, 0x41]); // n=\xff\xfeA
    const result = await readFormBody(post(bytes, { "content-type": "application/x-www-form-urlencoded" }));
    expect(result).toEqual({ kind: "ok", fields: { n: "\ufffd\ufffdA" } });
  });

  it("reports a broken multipart body as malformed", async () => {
    const result = await readFormBody(
      post("garbage", { "content-type": "multipart/form-data; boundary=xyz" }),
    );
    expect(result).toEqual({ kind: "malformed" });
  });
});
