import { describe, expect, it } from "vitest";
import { callOutbound, isOutboundTimeout } from "./policy.ts";

function never(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener("abort", () => reject(new Error("aborted")));
  });
}

describe("callOutbound", () => {
  it("retries a failing call up to its attempts, then fails with the last error", async () => {
    let calls = 0;
    const failing = callOutbound(
      { attempts: 3, attemptTimeoutMs: 1_000, initialDelayMs: 1 },
      () => {
        calls++;
        return Promise.reject(new Error(`failure ${calls}`));
      },
    );
    await expect(failing).rejects.toThrow("failure 3");
    expect(calls).toBe(3);
  });

  it("returns the first success without further attempts", async () => {
    let calls = 0;
    const value = await callOutbound(
      { attempts: 5, attemptTimeoutMs: 1_000, initialDelayMs: 1 },
      async () => {
        calls++;
        if (calls < 2) throw new Error("flaky");
        return "ok";
      },
    );
    expect([value, calls]).toEqual(["ok", 2]);
  });

  it("does not retry what retryIf rejects", async () => {
    let calls = 0;
    const call = callOutbound(
      { attempts: 5, attemptTimeoutMs: 1_000, initialDelayMs: 1, retryIf: () => false },
      () => {
        calls++;
        return Promise.reject(new Error("400 bad request"));
      },
    );
    await expect(call).rejects.toThrow("400 bad request");
    expect(calls).toBe(1);
  });

  it("aborts a hung attempt's signal and retries it", async () => {
    const signals: AbortSignal[] = [];
    const call = callOutbound(
      { attempts: 2, attemptTimeoutMs: 20, initialDelayMs: 1 },
      (signal) => {
        signals.push(signal);
        return never(signal);
      },
    );
    const error = await call.catch((e: unknown) => e);
    expect(isOutboundTimeout(error)).toBe(true);
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });

  it("gives up at the deadline even with attempts left", async () => {
    let calls = 0;
    const error = await callOutbound(
      { attempts: 1_000, attemptTimeoutMs: 10, initialDelayMs: 5, maxDelayMs: 5, deadlineMs: 100 },
      (signal) => {
        calls++;
        return never(signal);
      },
    ).catch((e: unknown) => e);
    expect(isOutboundTimeout(error)).toBe(true);
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(1_000);
  });
});

describe("callOutbound with retryIf", () => {
  it("still retries timed-out attempts when retryIf rejects ordinary errors", async () => {
    let calls = 0;
    const error = await callOutbound(
      { attempts: 3, attemptTimeoutMs: 10, initialDelayMs: 1, retryIf: () => false },
      (signal) => {
        calls++;
        return never(signal);
      },
    ).catch((e: unknown) => e);
    expect(isOutboundTimeout(error)).toBe(true);
    expect(calls).toBe(3);
  });
});
