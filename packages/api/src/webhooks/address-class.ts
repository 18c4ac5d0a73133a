import { BlockList, isIP } from "node:net";

/**
 * What kind of address a webhook would connect to. Only "public" is allowed by default;
 * WEBHOOK_ALLOW_PRIVATE=true adds "loopback" and "private", never "link-local" (the cloud
 * metadata service lives at 169.254.169.254) nor "reserved" (multicast, broadcast, …).
 */
export type AddressClass = "public" | "loopback" | "private" | "link-local" | "reserved";

function blocks(ranges: ReadonlyArray<readonly [string, number, "ipv4" | "ipv6"]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, type] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

const RANGES: ReadonlyArray<readonly [Exclude<AddressClass, "public">, BlockList]> = [
  [
    "loopback",
    blocks([
      ["127.0.0.0", 8, "ipv4"],
      // "This network": connecting to 0.0.0.0 reaches this very host on Linux.
      ["0.0.0.0", 8, "ipv4"],
      ["::1", 128, "ipv6"],
      ["::", 128, "ipv6"],
    ]),
  ],
  [
    "link-local",
    blocks([
      ["169.254.0.0", 16, "ipv4"],
      ["fe80::", 10, "ipv6"],
    ]),
  ],
  [
    "private",
    blocks([
      ["10.0.0.0", 8, "ipv4"],
      ["172.16.0.0", 12, "ipv4"],
      ["192.168.0.0", 16, "ipv4"],
      // Carrier-grade NAT: private to the provider's network.
      ["100.64.0.0", 10, "ipv4"],
      ["fc00::", 7, "ipv6"],
      // Site-local, deprecated but still routed inside some networks.
      ["fec0::", 10, "ipv6"],
    ]),
  ],
  [
    "reserved",
    blocks([
      ["224.0.0.0", 4, "ipv4"],
      ["240.0.0.0", 4, "ipv4"],
      ["ff00::", 8, "ipv6"],
    ]),
  ],
];

/** ::ffff:127.0.0.1 (and ::ffff:7f00:1) reach the IPv4 address inside them. */
function unmapped(address: string): string {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return address;
  if (match[1]) return match[1];
  const high = Number.parseInt(match[2] as string, 16);
  const low = Number.parseInt(match[3] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** The class of an IP address (v4 or v6, without brackets); throws on anything else. */
export function classifyAddress(address: string): AddressClass {
  const ip = unmapped(address.trim());
  const version = isIP(ip);
  if (version === 0) throw new Error(`"${address}" is not an IP address`);
  const type = version === 4 ? "ipv4" : "ipv6";
  for (const [kind, list] of RANGES) if (list.check(ip, type)) return kind;
  return "public";
}

const WORDS: Record<Exclude<AddressClass, "public">, string> = {
  loopback: "a loopback address (this server itself)",
  private: "a private network address",
  "link-local": "a link-local address (such as the cloud metadata service)",
  reserved: "a reserved or multicast address",
};

/** Why a webhook may not connect to `address`, or undefined when it may. */
export function addressRefusal(address: string, allowPrivate: boolean): string | undefined {
  const kind = classifyAddress(address);
  if (kind === "public") return undefined;
  if (allowPrivate && (kind === "loopback" || kind === "private")) return undefined;
  const hint =
    kind === "loopback" || kind === "private"
      ? "; only public addresses are allowed unless the server sets WEBHOOK_ALLOW_PRIVATE=true"
      : "; this is never allowed";
  return `${address} is ${WORDS[kind]}${hint}`;
}
