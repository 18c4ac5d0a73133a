import { describe, expect, it } from "vitest";
import { addressRefusal, classifyAddress } from "./address-class.ts";

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["93.184.216.34", "public"],
    ["2606:4700:4700::1111", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "loopback"],
    ["::1", "loopback"],
    ["::", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["100.127.255.255", "private"],
    ["100.128.0.1", "public"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["::ffff:169.254.169.254", "link-local"],
    ["224.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["ff02::1", "reserved"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("refuses what is not an address", () => {
    expect(() => classifyAddress("example.com")).toThrow(/not an IP address/);
  });
});

describe("addressRefusal", () => {
  it("allows public addresses always", () => {
    expect(addressRefusal("8.8.8.8", false)).toBeUndefined();
    expect(addressRefusal("8.8.8.8", true)).toBeUndefined();
  });

  it("allows loopback and private ones only with WEBHOOK_ALLOW_PRIVATE", () => {
    expect(addressRefusal("127.0.0.1", false)).toMatch(
      /127\.0\.0\.1 is a loopback address.*WEBHOOK_ALLOW_PRIVATE=true/,
    );
    expect(addressRefusal("192.168.0.9", false)).toMatch(/private network address/);
    expect(addressRefusal("127.0.0.1", true)).toBeUndefined();
    expect(addressRefusal("fd00::2", true)).toBeUndefined();
  });

  it("never allows link-local (the metadata service) or reserved ones", () => {
    expect(addressRefusal("169.254.169.254", true)).toMatch(/link-local.*never allowed/);
    expect(addressRefusal("fe80::1", true)).toMatch(/link-local/);
    expect(addressRefusal("224.0.0.1", true)).toMatch(/reserved/);
  });
});
