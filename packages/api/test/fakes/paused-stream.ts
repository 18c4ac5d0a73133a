import { spawn } from "node:child_process";

/** A stream client that has stopped reading; see `openPausedStream`. */
export interface PausedStream {
  /** Makes the client read again, to the end of the stream. */
  resume(): void;
  /**
   * Every byte the client read, as text: the raw response (status line, headers, chunked body).
   * Empty until `resume()`.
   */
  received(): string;
  /** The client's exit code once its stream ended after `resume()`: 0 when the server closed it. */
  readonly ended: Promise<number | null>;
  /** Kills the client, which closes its connection. */
  destroy(): void;
}

// Node cannot shrink a socket's buffers, so the client is Python: a small receive buffer and
// segment size keep what the kernel absorbs for it small (on loopback it would otherwise take
// megabytes before the server's writes back up). It says "paused" once the first bytes of the
// answer came (so the server has taken the stream), reads nothing more until a line on stdin,
// then echoes everything, those first bytes included, to stdout until the stream ends.
const CLIENT = `
import socket, sys
host, port, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
s.connect((host, port))
s.sendall(("GET %s HTTP/1.1\\r\\nHost: %s\\r\\n\\r\\n" % (target, host)).encode())
chunk = s.recv(64)
sys.stdout.write("paused\\n"); sys.stdout.flush()
sys.stdin.readline()
try:
    while chunk:
        sys.stdout.buffer.write(chunk); sys.stdout.flush()
        chunk = s.recv(65536)
except ConnectionResetError:
    pass
`;
const PAUSED = "paused\n";

/**
 * Opens a GET of `url` (a stream) that reads the first bytes of the answer and then stops
 * reading, so the server's writes to it back up, until `resume()`. Resolves once it has stopped.
 */
export function openPausedStream(url: string): Promise<PausedStream> {
  const { hostname, port, pathname, search } = new URL(url);
  const child = spawn("python3", ["-c", CLIENT, hostname, port, `${pathname}${search}`], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    out += chunk;
  });
  const ended = new Promise<number | null>((resolve) => child.once("close", resolve));
  const stream: PausedStream = {
    resume: () => {
      child.stdin.write("read\n");
    },
    received: () => out.slice(PAUSED.length),
    ended,
    destroy: () => child.kill(),
  };
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => reject(new Error(`the paused client exited (${code}) early`)));
    const paused = () => {
      if (!out.startsWith(PAUSED)) return;
      child.stdout.off("data", paused);
      resolve(stream);
    };
    child.stdout.on("data", paused);
  });
}
