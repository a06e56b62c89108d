import { spawn } from "node:child_process";
import { once } from "node:events";

/**
 * A socket listening with a backlog of 0, already full of its own connections, so the kernel
 * drops every later SYN and a client's connect hangs, as across a network partition. Python,
 * because Node accepts every connection itself.
 */
const PROGRAM = `
import socket, sys, time
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(0)
port = listener.getsockname()[1]
fillers = []
for _ in range(3):
    filler = socket.socket()
    filler.setblocking(False)
    try:
        filler.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    fillers.append(filler)
time.sleep(0.2)
print(port, flush=True)
sys.stdin.read()
`;

export interface NoAcceptHost {
  port: number;
  /** Closes the socket: the port is free for a server that answers. */
  stop(): Promise<void>;
}

export async function startNoAcceptHost(): Promise<NoAcceptHost> {
  const child = spawn("python3", ["-c", PROGRAM], { stdio: ["pipe", "pipe", "inherit"] });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  const port = Number(line.toString().trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error(`the no-accept host said ${line.toString()}`);
  const exited = once(child, "exit");
  return {
    port,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin!.end();
      await exited;
    },
  };
}
