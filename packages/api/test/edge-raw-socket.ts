import { connect, type Socket } from "node:net";

export interface RawResponse {
  /** Everything the server sent before it closed the connection (or the deadline passed). */
  text: string;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): RawResponse {
  const [head = "", ...rest] = text.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    text,
    status: status ? Number(status) : undefined,
    headers,
    body: rest.join("\r\n\r\n"),
  };
}

/**
 * Collects what the server sends on `socket` until it closes the connection (or the deadline
 * passes), then destroys the socket and calls `finish` once with the text. `began` is true from
 * the first byte of the answer, or once it is over.
 */
function collectAnswer(socket: Socket, deadlineMs: number, finish: (text: string) => void) {
  let text = "";
  let finished = false;
  const done = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    socket.destroy();
    finish(text);
  };
  const timer = setTimeout(done, deadlineMs);
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  socket.on("end", done);
  socket.on("close", done);
  socket.on("error", done);
  return { began: () => finished || text !== "" };
}

/**
 * Writes bytes as they are (no client library fixes them up) and collects the answer until the
 * server closes the connection. A deadline keeps a server that never answers from hanging the
 * test; the caller sees `status: undefined` then.
 */
export function rawRequest(
  port: number,
  bytes: string | Buffer,
  deadlineMs = 10_000,
): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    collectAnswer(socket, deadlineMs, (text) => resolve(parse(text)));
    socket.write(bytes);
  });
}

/**
 * Sends a head, then `total` bytes of body as fast as the server takes them, stopping as soon
 * as it answers or closes: a server that reads the whole body before refusing it is caught by
 * the deadline or by the bytes it took.
 */
export function floodRequest(
  port: number,
  head: string,
  total: number,
  { chunked }: { chunked: boolean },
  deadlineMs = 20_000,
): Promise<RawResponse & { sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const piece = Buffer.alloc(64 * 1024, "a");
    const framed = Buffer.concat([
      Buffer.from(`${piece.length.toString(16)}\r\n`),
      piece,
      Buffer.from("\r\n"),
    ]);
    let sent = 0;
    const answer = collectAnswer(socket, deadlineMs, (text) => resolve({ ...parse(text), sent }));
    const pump = () => {
      while (!answer.began() && sent < total) {
        sent += piece.length;
        if (!socket.write(chunked ? framed : piece)) {
          socket.once("drain", pump);
          return;
        }
      }
      if (!answer.began() && chunked) socket.write("0\r\n\r\n");
    };
    socket.write(head);
    pump();
  });
}
