import { createServer, type RequestListener, type Server } from "node:http";

/**
 * Listens, `first` answering what it can and the app the rest; or `command` refuses, saying in one
 * line why it cannot (the port is taken, the address is not ours).
 */
export function listen(
  command: string,
  first: (...args: Parameters<RequestListener>) => boolean,
  app: RequestListener,
  { port, host }: { port: number; host: string | undefined },
): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((request, response) => {
      if (!first(request, response)) app(request, response);
    });
    const ready = () => resolve(server);
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${host ?? "every interface"}, port ${port}`;
      refuse(`${command}: cannot listen on ${where} (${error.code ?? error.message})`);
    });
    if (host) server.listen(port, host, ready);
    else server.listen(port, ready);
  });
}

export function addressOf(server: Server): string {
  const address = server.address();
  if (address === null || typeof address === "string") return String(address);
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

export interface StopOptions {
  /** How long requests in flight may take to finish before their connections are cut. */
  graceMs: number;
  /** Runs first (development ends its live-reload streams, which never finish by themselves). */
  beforeClose?: () => void;
  /** Runs once every connection is closed, before the process exits. */
  afterClose?: () => Promise<void> | void;
}

/**
 * SIGTERM or SIGINT: let requests in flight finish, then exit 0; past `graceMs`, cut and exit 1.
 * Further signals change nothing: under `npm start` a Ctrl-C arrives twice (terminal and npm).
 */
export function stopOnSignals(server: Server, { graceMs, beforeClose, afterClose }: StopOptions): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ event: "shutdown", signal, graceMs }));
    const exit = async (code: number) => {
      await afterClose?.();
      console.log(JSON.stringify({ event: "stopped", exitCode: code }));
      process.exit(code);
    };
    const cut = setTimeout(() => {
      console.error(JSON.stringify({ event: "shutdown_grace_exceeded", graceMs }));
      server.closeAllConnections();
      void exit(1);
    }, graceMs);
    // Idle keep-alive connections close as soon as their last response is sent, not at their timeout.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    beforeClose?.();
    server.close(() => {
      clearTimeout(cut);
      clearInterval(idle);
      void exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

export function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}
