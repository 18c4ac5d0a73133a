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
  /** The same as bytes (a gzip body is not text). */
  receivedBytes(): Buffer;
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
host, port, target, extra = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
s.connect((host, port))
s.sendall(("GET %s HTTP/1.1\\r\\nHost: %s\\r\\n%s\\r\\n" % (target, host, extra)).encode())
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
const PAUSED = Buffer.from("paused\n");

/**
 * Opens a GET of `url` (a stream) that reads the first bytes of the answer and then stops
 * reading, so the server's writes to it back up, until `resume()`. Resolves once it has stopped.
 * `headers` are added to the request (e.g. a browser's Accept-Encoding).
 */
export function openPausedStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<PausedStream> {
  const { hostname, port, pathname, search } = new URL(url);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const child = spawn("python3", ["-c", CLIENT, hostname, port, `${pathname}${search}`, extra], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = Buffer.alloc(0);
  child.stdout.on("data", (chunk: Buffer) => {
    out = Buffer.concat([out, chunk]);
  });
  const ended = new Promise<number | null>((resolve) => child.once("close", resolve));
  const stream: PausedStream = {
    resume: () => {
      child.stdin.write("read\n");
    },
    received: () => out.subarray(PAUSED.length).toString(),
    receivedBytes: () => out.subarray(PAUSED.length),
    ended,
    destroy: () => child.kill(),
  };
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => reject(new Error(`the paused client exited (${code}) early`)));
    const paused = () => {
      if (out.length < PAUSED.length || !out.subarray(0, PAUSED.length).equals(PAUSED)) return;
      child.stdout.off("data", paused);
      resolve(stream);
    };
    child.stdout.on("data", paused);
  });
}
