import { expect } from "vitest";

import type { AppServer } from "./app-server";

export const METRICS_TOKEN = "test-metrics-token";

export async function dispatcherPasses(server: AppServer): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status, "GET /metrics (start the server with METRICS_TOKEN)").toBe(200);
  const value = /^lead_dispatcher_passes_total (\S+)$/m.exec(await res.text())?.[1];
  expect(value, "lead_dispatcher_passes_total on /metrics").toBeDefined();
  return Number(value);
}

/**
 * "Nothing more happened" as an event: a check after it covers every call a dispatcher could have
 * made meanwhile, however slow the machine.
 */
export async function afterDispatcherPasses(servers: AppServer[], count = 2): Promise<void> {
  const before = await Promise.all(servers.map(dispatcherPasses));
  await expect
    .poll(
      async () =>
        (await Promise.all(servers.map(dispatcherPasses))).map((passes, index) => passes - before[index]!),
      { timeout: 60_000, interval: 100 },
    )
    .toSatisfy((made: number[]) => made.every((passes) => passes >= count));
}
