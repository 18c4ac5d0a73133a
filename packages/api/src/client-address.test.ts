import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.ts";

function request(remoteAddress: string, forwardedFor?: string) {
  return {
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
    socket: { remoteAddress },
  } as unknown as IncomingMessage;
}

describe("clientAddress", () => {
  it("ignores X-Forwarded-For unless proxies are trusted (a client can write anything there)", () => {
    expect(clientAddress(request("10.0.0.9", "1.2.3.4"), 0)).toBe("10.0.0.9");
  });

  it("takes the entry the nearest trusted proxy appended, not the client's forged one", () => {
    expect(clientAddress(request("10.0.0.9", "6.6.6.6, 203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientAddress(request("10.0.0.9", "6.6.6.6, 203.0.113.7, 10.0.0.8"), 2)).toBe(
      "203.0.113.7",
    );
  });

  it("falls back to the socket when a trusted proxy sent no header", () => {
    expect(clientAddress(request("10.0.0.9"), 1)).toBe("10.0.0.9");
  });
});
