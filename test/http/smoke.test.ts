import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";

describe("production server", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves the home page as HTML", async () => {
    const res = await fetch(server.url + "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain('<html lang="en"');
  });
});
