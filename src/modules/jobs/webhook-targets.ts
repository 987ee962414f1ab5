import dns from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { invalid } from "../../errors.ts";
import { hostOf, isHttpUrl } from "../../urls.ts";

/** IPv6's reserved first block: `::` and `::1` are in it, and the IPv4-compatible `::/96`. */
const ZERO_BLOCK = ipaddr.parseCIDR("::/8") as [ipaddr.IPv6, number];
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96") as [ipaddr.IPv6, number];

/**
 * The range of an address a webhook may not reach, or null for a public unicast one. Everything
 * ipaddr.js does not call unicast is refused: loopback, private, link-local, unique-local, unspecified,
 * and the rest (carrier-grade NAT, multicast, reserved, IPv4 carried in IPv6 prefixes…). IPv4-mapped
 * IPv6 addresses (`::ffff:127.0.0.1`) are judged as the IPv4 address they carry. ipaddr.js calls the rest
 * of `::/8` unicast, yet none of it is assigned, and an IPv4-compatible address (`::127.0.0.1`, deprecated
 * by RFC 4291) may still be routed by a dual stack to the IPv4 address it carries: all of it is refused.
 */
function internalRange(address: string): string | null {
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== "unicast") return range;
  if (parsed instanceof ipaddr.IPv6 && parsed.match(ZERO_BLOCK)) {
    return parsed.match(IPV4_COMPATIBLE) ? "ipv4Compatible" : "reserved";
  }
  return null;
}

/** The request field a refused URL came in, and the variable that allows hosts for it. */
export interface TargetNaming {
  field: string;
  allowVariable: string;
}

const WEBHOOK_NAMING: TargetNaming = { field: "webhookUrl", allowVariable: "RECAP_WEBHOOK_ALLOW_HOSTS" };

/**
 * Decides which URLs Recap will call (webhooks, and with their own allow-list media URLs and fonts): none
 * with user credentials, and none whose host is or resolves to an internal address unless the operator
 * allowed that host. Checked at submission (`check`) and again on every connection (`lookup`), since DNS
 * may answer differently later.
 */
export class WebhookTargets {
  constructor(
    private readonly allowHosts: ReadonlySet<string>,
    private readonly naming: TargetNaming = WEBHOOK_NAMING,
  ) {}

  /** Throws `invalid` naming the URL's field and the rule it breaks. */
  async check(target: string): Promise<void> {
    const { field, allowVariable } = this.naming;
    if (!isHttpUrl(target)) throw invalid(`${field} must be an absolute http(s) URL`);
    const url = new URL(target);
    if (url.username !== "" || url.password !== "") {
      throw invalid(`${field} must not contain user credentials (user:password@): they are never sent`);
    }
    const host = hostOf(url);
    if (this.allowHosts.has(host)) return;
    let addresses: string[];
    if (isIP(host)) {
      addresses = [host];
    } else {
      try {
        addresses = (await dns.promises.lookup(host, { all: true })).map((entry) => entry.address);
      } catch {
        throw invalid(`${field} host ${host} does not resolve`);
      }
    }
    for (const address of addresses) {
      const range = internalRange(address);
      if (range !== null) {
        throw invalid(
          `${field} must not point at an internal address: ${host} is ${address} (${range}); an operator can allow chosen hosts with ${allowVariable}`,
        );
      }
    }
  }

  /**
   * Why a delivery to this URL must not be attempted, or null. Only IP literals are judged here: a
   * host name is judged on the addresses it resolves to when connecting (`lookup`).
   */
  refusal(url: URL): string | null {
    const host = hostOf(url);
    if (this.allowHosts.has(host) || !isIP(host)) return null;
    const range = internalRange(host);
    return range === null ? null : `${host} is an internal address (${range})`;
  }

  /**
   * A `lookup` for the HTTP client: resolves as usual and fails the connection when the host is not
   * allowed and any address it resolves to is internal, so the address actually connected to is the
   * one checked.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const host = hostname.replace(/\.$/, "").toLowerCase();
      const internal = this.allowHosts.has(host)
        ? undefined
        : addresses.find((entry) => internalRange(entry.address) !== null);
      if (internal) {
        return callback(
          Object.assign(new Error(`${host} resolves to an internal address (${internal.address})`), {
            code: "ERECAPINTERNAL",
          }),
          "",
        );
      }
      const [first] = addresses;
      if (options.all) return callback(null, addresses);
      if (!first)
        return callback(Object.assign(new Error(`${host} has no address`), { code: "ENOTFOUND" }), "");
      callback(null, first.address, first.family);
    });
  };
}
