import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * What kind of address a webhook would connect to. Only "public" is allowed by default;
 * WEBHOOK_ALLOW_PRIVATE=true adds "loopback" and "private", never "link-local" (the cloud
 * metadata service lives at 169.254.169.254) nor "reserved" (multicast, broadcast, documentation,
 * discard-only and every other special-purpose range).
 */
export type AddressClass = "public" | "loopback" | "private" | "link-local" | "reserved";

/**
 * ipaddr.js names the special-purpose ranges (IANA's registries); anything it names that is not
 * listed here is "reserved", so a range added by a newer ipaddr.js is refused, not let through.
 */
const CLASS_OF_RANGE: Record<string, AddressClass> = {
  unicast: "public",
  loopback: "loopback",
  // "This network" (0.0.0.0/8, ::): connecting to 0.0.0.0 reaches this very host on Linux.
  unspecified: "loopback",
  private: "private",
  // Carrier-grade NAT: private to the provider's network.
  carrierGradeNat: "private",
  uniqueLocal: "private",
  // Site-local, deprecated but still routed inside some networks.
  deprecatedSiteLocal: "private",
  linkLocal: "link-local",
};

/** The more restrictive class first, for an address that carries two (Teredo). */
const SEVERITY: readonly AddressClass[] = [
  "public",
  "private",
  "loopback",
  "link-local",
  "reserved",
];

type Parts = [number, number, number, number, number, number, number, number];

const parts = (v6: ipaddr.IPv6) => v6.parts as Parts;

const isNat64 = (v6: ipaddr.IPv6) => parts(v6)[0] === 0x64 && parts(v6)[1] === 0xff9b;

function ipv4(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
}

/**
 * The IPv4 addresses an IPv6 address reaches: the packet ends up at them through a mapping, a
 * translator (NAT64, SIIT) or a tunnel (6to4, Teredo), so they are what is judged. Undefined for
 * a plain IPv6 address.
 */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = parts(v6);
  const range: string = v6.range();
  if (range === "ipv4Mapped" || range === "rfc6145") return [ipv4(p[6], p[7])];
  // NAT64's well-known prefix 64:ff9b::/96 carries the IPv4 address in its last 32 bits.
  if (isNat64(v6)) {
    return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? [ipv4(p[6], p[7])] : undefined;
  }
  if (range === "6to4") return [ipv4(p[1], p[2])];
  // Teredo: the server's address, then the client's with every bit flipped.
  if (range === "teredo") return [ipv4(p[2], p[3]), ipv4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
  // IPv4-compatible ::a.b.c.d (deprecated), apart from :: and ::1 themselves.
  if (range === "unicast" && p.slice(0, 6).every((part) => part === 0)) {
    return [ipv4(p[6], p[7])];
  }
  return undefined;
}

function classOfRange(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  // The rest of 64:ff9b::/32 (the local-use 64:ff9b:1::/48 among it) may place the IPv4
  // address anywhere: it cannot be judged, so it is refused.
  if (address.kind() === "ipv6" && isNat64(address as ipaddr.IPv6)) return "reserved";
  return CLASS_OF_RANGE[address.range()] ?? "reserved";
}

interface Judgement {
  kind: AddressClass;
  /** The IPv4 address inside an IPv6 one that decided the class. */
  carried?: string;
}

function judge(address: string): Judgement {
  const text = address.trim();
  // Only the plain notations a URL or a resolver gives; ipaddr.js alone would also read
  // "127.1" or "0x7f.0.0.1", which are not addresses here.
  if (isIP(text) === 0) throw new Error(`"${address}" is not an IP address`);
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === "ipv4") return { kind: classOfRange(parsed) };
  const inner = embeddedIPv4(parsed as ipaddr.IPv6);
  if (!inner) return { kind: classOfRange(parsed) };
  let worst: Judgement = { kind: "public" };
  for (const v4 of inner) {
    const kind = classOfRange(v4);
    if (SEVERITY.indexOf(kind) > SEVERITY.indexOf(worst.kind)) {
      worst = { kind, carried: v4.toString() };
    }
  }
  return worst;
}

/** The class of an IP address (v4 or v6, without brackets); throws on anything else. */
export function classifyAddress(address: string): AddressClass {
  return judge(address).kind;
}

const WORDS: Record<Exclude<AddressClass, "public">, string> = {
  loopback: "a loopback address (this server itself)",
  private: "a private network address",
  "link-local": "a link-local address (such as the cloud metadata service)",
  reserved: "a reserved, multicast or special-purpose address",
};

/** Why a webhook may not connect to `address`, or undefined when it may. */
export function addressRefusal(address: string, allowPrivate: boolean): string | undefined {
  const { kind, carried } = judge(address);
  if (kind === "public") return undefined;
  if (allowPrivate && (kind === "loopback" || kind === "private")) return undefined;
  const hint =
    kind === "loopback" || kind === "private"
      ? "; only public addresses are allowed unless the server sets WEBHOOK_ALLOW_PRIVATE=true"
      : "; this is never allowed";
  const what = carried ? `${address} (it reaches ${carried})` : address;
  return `${what} is ${WORDS[kind]}${hint}`;
}
