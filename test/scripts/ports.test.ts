// The tests' servers must get ports that fetch and the browsers connect to (no Fetch "bad port").
// scripts/ports.mjs is held to what this Node's fetch refuses, port by port, without sending anything:
// a dispatcher that fails every request stands in for the network, and a bad port never reaches it.
import { describe, expect, it } from "vitest";

import { fetchAllows } from "../../scripts/ports.mjs";

const notSent = new Error("not sent");
let handed = 0;
const refuseEverything = {
  dispatch(_options: unknown, handler: { onError?: (error: Error) => void }) {
    handed += 1;
    handler.onError?.(notSent);
    return true;
  },
};

async function fetchRefuses(port: number): Promise<boolean> {
  try {
    // `dispatcher` is undici's option, which Node's fetch takes; the DOM's RequestInit lacks it.
    await fetch(`http://127.0.0.1:${port}/`, { dispatcher: refuseEverything } as RequestInit);
  } catch (error) {
    const message = String((error as { cause?: Error }).cause?.message ?? error);
    if (message.includes("bad port")) return true;
  }
  return false;
}

describe("the ports the tests listen on", () => {
  it("fetchAllows refuses exactly the ports Node's fetch refuses, 1 to 65535", async () => {
    handed = 0;
    expect(await fetchRefuses(3000)).toBe(false);
    // The stand-in was used: nothing went out on port 3000.
    expect(handed).toBe(1);

    const refusedByFetch: number[] = [];
    const refusedByUs: number[] = [];
    for (let port = 1; port <= 65_535; port += 1) {
      if (await fetchRefuses(port)) refusedByFetch.push(port);
      if (!fetchAllows(port)) refusedByUs.push(port);
    }
    expect(refusedByFetch).toContain(10_080);
    expect(refusedByUs).toEqual(refusedByFetch);
    expect(handed).toBe(1 + 65_535 - refusedByFetch.length);
  });
});
