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
    // Special-purpose ranges the old hand-written table let through as public.
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["100::1", "reserved"],
    // IPv4 inside IPv6 is judged by the IPv4 address it reaches.
    ["::7f00:1", "loopback"],
    ["::a9fe:a9fe", "link-local"],
    ["::a00:1", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["64:ff9b::c0a8:101", "private"],
    ["2002:7f00:1::", "loopback"],
    ["2002:a9fe:a9fe::", "link-local"],
    ["2002:a00:1:1::1", "private"],
    ["::ffff:0:7f00:1", "loopback"],
    ["::ffff:0:a9fe:a9fe", "link-local"],
    // Teredo: server 0.0.0.0 and client 255.255.255.254 (stored with its bits flipped).
    ["2001::1", "reserved"],
    // Teredo with a public server and a client at 127.0.0.1 (flipped: 80ff:fffe).
    ["2001:0:808:808::80ff:fffe", "loopback"],
    // NAT64's local-use prefix places the IPv4 address where it cannot be read back.
    ["64:ff9b:1::7f00:1", "reserved"],
    // ... and public when what they carry is public.
    ["::ffff:8.8.8.8", "public"],
    ["64:ff9b::808:808", "public"],
    ["2002:808:808::1", "public"],
    ["2001:0:808:808::f7f7:f7f7", "public"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("refuses what is not an address, including shorthand IPv4 that only some parsers read", () => {
    expect(() => classifyAddress("example.com")).toThrow(/not an IP address/);
    expect(() => classifyAddress("127.1")).toThrow(/not an IP address/);
    expect(() => classifyAddress("0x7f.0.0.1")).toThrow(/not an IP address/);
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
    expect(addressRefusal("64:ff9b::a9fe:a9fe", true)).toBe(
      "64:ff9b::a9fe:a9fe (it reaches 169.254.169.254) is a link-local address (such as the cloud metadata service); this is never allowed",
    );
  });

  it("allows an IPv4-in-IPv6 loopback address with WEBHOOK_ALLOW_PRIVATE, as its IPv4 form", () => {
    expect(addressRefusal("::ffff:0:7f00:1", true)).toBeUndefined();
    expect(addressRefusal("::ffff:0:7f00:1", false)).toMatch(
      /\(it reaches 127\.0\.0\.1\) is a loopback address/,
    );
  });
});
