import { describe, expect, it } from "vitest";

import { chooseEncoding, matchesIfNoneMatch } from "../../../server/http-rules";

describe("choosing the encoding of the cached document", () => {
  it("prefers brotli whenever it is accepted, whatever the order of the header", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("br;q=0.1, gzip")).toBe("br");
  });

  it("falls back to gzip, then to the plain bytes", () => {
    expect(chooseEncoding("gzip, deflate")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(chooseEncoding("deflate")).toBe("identity");
    expect(chooseEncoding("identity")).toBe("identity");
    expect(chooseEncoding("")).toBe("identity");
    expect(chooseEncoding(null)).toBe("identity");
  });

  it("reads a wildcard as every coding not listed", () => {
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("br;q=0, *")).toBe("gzip");
    expect(chooseEncoding("*;q=0")).toBe("identity");
  });
});

describe("If-None-Match", () => {
  const etag = '"abc-br"';
  it("matches the same tag, weakly, in a list, or *", () => {
    expect(matchesIfNoneMatch('"abc-br"', etag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc-br"', etag)).toBe(true);
    expect(matchesIfNoneMatch('"old", "abc-br"', etag)).toBe(true);
    expect(matchesIfNoneMatch("*", etag)).toBe(true);
  });

  it("does not match another representation or a missing header", () => {
    expect(matchesIfNoneMatch('"abc-gzip"', etag)).toBe(false);
    expect(matchesIfNoneMatch('"abc"', etag)).toBe(false);
    expect(matchesIfNoneMatch(null, etag)).toBe(false);
    expect(matchesIfNoneMatch("", etag)).toBe(false);
  });
});
