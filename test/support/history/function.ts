import { createServer as createHttpServer } from "node:http";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";

import { freePort } from "../ports";
import type { Call, Plan } from "./checker";
import type { Random } from "./random";

/** The nemesis sets how the recording function behaves; each process calls with its own `apikey`. */
export type FunctionMode =
  | { kind: "ok" }
  | { kind: "slow"; minMs: number; maxMs: number }
  | { kind: "fail"; status: number }
  | { kind: "hang" }
  | { kind: "garbage" }
  /** The function sends the e-mail, then a gateway answers 504 (it gave up waiting). */
  | { kind: "ran-504" }
  /** The function sends the e-mail, then the connection is cut before any answer. */
  | { kind: "ran-cut" }
  /** Each call its own: mostly answered, some slow, failing, hanging or garbage. */
  | { kind: "flaky"; slowMaxMs: number }
  | { kind: "down" };

export interface RecordingFunction {
  url: string;
  calls: Call[];
  setMode(mode: FunctionMode): Promise<void>;
  /** Calls not ended yet, by caller. */
  inFlight(): Call[];
  /** Settles once more than `count` calls have arrived (or the fake is closed). */
  callsBeyond(count: number): Promise<void>;
  close(): Promise<void>;
}

export const now = () => performance.timeOrigin + performance.now();

const CONTACT_PATH = "/functions/v1/send-contact-email";

/**
 * Past the callers' timeout and past a lease (6.5 s), so the checker's "in flight" runs until the
 * function finished, not until its caller gave up (issue 40).
 */
const HANG_MAX_MS = 8_000;

/**
 * `look` runs as each call arrives (scenario.ts); the function begins only once it has, so a
 * product that stored the lead only after the answer could not have stored it before the look.
 */
export async function startRecordingFunction(
  random: Random,
  look: (call: Call) => Promise<void>,
): Promise<RecordingFunction> {
  const port = await freePort();
  let mode: FunctionMode = { kind: "ok" };
  const calls: Call[] = [];
  const open = new Set<Call>();
  const waiters = new Set<{ count: number; settle: () => void }>();
  /** Every open connection, and how many calls each is answering (an idle one answers none). */
  const sockets = new Map<Socket, number>();
  let seq = 0;

  const decide = (): { plan: Plan; status: number; delayMs: number } => {
    switch (mode.kind) {
      case "ok":
        return { plan: "ok", status: 200, delayMs: 0 };
      case "slow":
        return { plan: "ok", status: 200, delayMs: random.int(mode.minMs, mode.maxMs) };
      case "fail":
        return { plan: "fail", status: mode.status, delayMs: random.int(0, 200) };
      case "hang":
        return { plan: "hang", status: 0, delayMs: random.int(0, HANG_MAX_MS) };
      case "garbage":
        return { plan: "garbage", status: 200, delayMs: random.int(0, 200) };
      case "down":
        return { plan: "reset", status: 0, delayMs: 0 };
      case "ran-504":
        return { plan: "ran-504", status: 504, delayMs: random.int(0, 300) };
      case "ran-cut":
        return { plan: "ran-cut", status: 0, delayMs: random.int(0, 300) };
      case "flaky": {
        const plan = random.weighted({
          ok: 5,
          slow: 2,
          fail: 2,
          hang: 1,
          garbage: 1,
          "ran-504": 1,
          "ran-cut": 1,
        });
        if (plan === "slow") return { plan: "ok", status: 200, delayMs: random.int(0, mode.slowMaxMs) };
        if (plan === "fail")
          return { plan: "fail", status: random.pick([500, 502, 503]), delayMs: random.int(0, 300) };
        if (plan === "ran-504" || plan === "ran-cut")
          return { plan, status: plan === "ran-504" ? 504 : 0, delayMs: random.int(0, 300) };
        if (plan === "hang") return { plan, status: 0, delayMs: random.int(0, HANG_MAX_MS) };
        return { plan, status: 200, delayMs: random.int(0, 100) };
      }
    }
  };

  // The HTTP side never listens itself: a TCP listener hands it each connection, so "down" can close
  // the port (connection refused) and "up" open it again, the same port, without touching the rest.
  const server = createHttpServer((req, res) => {
    const arrivedAt = now();
    if (req.method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    if (req.url !== CONTACT_PATH) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const socket = req.socket;
    sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
    res.on("close", () => sockets.has(socket) && sockets.set(socket, sockets.get(socket)! - 1));
    const { plan, status, delayMs } = decide();
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const call: Call = {
      seq: ++seq,
      caller: header("apikey") ?? "(no apikey)",
      key: header("idempotency-key"),
      email: "",
      message: "",
      arrivedAt,
      endedAt: arrivedAt,
      plan,
      status,
      answered: false,
    };
    calls.push(call);
    for (const waiter of [...waiters]) if (calls.length > waiter.count) waiter.settle();
    open.add(call);
    const looked = look(call);
    let ended = false;
    const end = (answered: boolean) => {
      if (ended) return;
      ended = true;
      call.endedAt = now();
      call.answered = answered;
      open.delete(call);
    };
    res.on("finish", () => end(true));
    res.on("close", () => end(false));
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      await looked;
      try {
        const lead = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          email?: unknown;
          message?: unknown;
        };
        call.email = String(lead.email ?? "");
        call.message = String(lead.message ?? "");
      } catch {
        call.email = "(unreadable body)";
      }
      // The function works on it until then, whether or not its caller is still there: a slow call
      // sends its e-mail after its caller gave up, a hung one is stuck that long.
      call.finishedAt = now() + (plan === "reset" ? 0 : delayMs);
      // Down: cut without the function running (a call on a connection opened before the port closed).
      if (plan === "reset") return void socket.destroy();
      if (plan === "hang") return; // never answered: until the caller gives up (its timeout) or dies
      const answer = () => {
        if (res.destroyed) return;
        if (plan === "ok") res.writeHead(200, { "content-type": "application/json" }).end('{"success":true}');
        else if (plan === "garbage")
          res.writeHead(200, { "content-type": "application/json" }).end("\u0000<html>not json");
        // The e-mail is sent; what comes back says nothing of it.
        else if (plan === "ran-504")
          res.writeHead(504, { "content-type": "text/html" }).end("<html>504 Gateway Time-out</html>");
        else if (plan === "ran-cut") socket.destroy();
        else res.writeHead(status, { "content-type": "application/json" }).end('{"error":"function failed"}');
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  let listener: NetServer | undefined;
  const listen = async () => {
    const next = createNetServer((socket: Socket) => {
      sockets.set(socket, 0);
      socket.on("close", () => sockets.delete(socket));
      server.emit("connection", socket);
    });
    await new Promise<void>((resolve, reject) => {
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => resolve());
    });
    listener = next;
  };
  const unlisten = () => {
    listener?.close();
    listener = undefined;
  };
  await listen();

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    async setMode(next) {
      const wasDown = mode.kind === "down";
      mode = next;
      if (next.kind === "down" && !wasDown) {
        // The port closes (new connections are refused) and idle kept-alive connections with it; a
        // call that still comes on one is cut without the function running (plan "reset").
        unlisten();
        for (const [socket, busy] of sockets) if (busy === 0) socket.destroy();
      } else if (next.kind !== "down" && wasDown) {
        await listen();
      }
    },
    inFlight: () => [...open],
    callsBeyond: (count) =>
      new Promise<void>((resolve) => {
        if (calls.length > count) return resolve();
        const waiter = { count, settle: () => (waiters.delete(waiter), resolve()) };
        waiters.add(waiter);
      }),
    async close() {
      for (const waiter of [...waiters]) waiter.settle();
      unlisten();
      for (const socket of sockets.keys()) socket.destroy();
      server.close();
    },
  };
}
