import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import { DomainError } from "../../errors.ts";
import type { LiveMetrics } from "../../metrics/metrics.ts";

export interface SlotLimits {
  /** Live connections this process serves at once (RECAP_LIVE_MAX_CONNECTIONS). */
  maxConnections: number;
  /** Live connections of one app at once (RECAP_LIVE_MAX_CONNECTIONS_PER_APP): across processes with Redis. */
  maxConnectionsPerApp: number;
}

/** How long a connection's slot in Redis lasts unrenewed: a process that dies frees its slots after it. */
const SLOT_MS = 30_000;
/** How often a process renews its connections' slots. */
const RENEW_MS = SLOT_MS / 3;
/** How long to stop asking Redis after it failed once; this process's own count applies meanwhile. */
const REDIS_PAUSE_MS = 5_000;

/**
 * Takes a slot in the app's set if fewer than the limit are held: slots past their expiry (their process died)
 * are dropped first, on Redis' clock, in one atomic script so processes admitting at once agree.
 */
const TAKE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Moves the expiry of slots still held (XX: never brings back one released meanwhile). */
const RENEW = `
local time = redis.call('TIME')
local until_ = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', until_, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/**
 * Counts live connections in against the limits (docs/LIVE.md, Limits): each process's own count, and one
 * app's across every process that shares Redis (REDIS_URL), else on this process alone. Redis that fails lets
 * this process's own per-app count decide for a while, rather than refuse or hold connections. The
 * process's connections counted in are also its `recap_live_connections` gauge.
 */
export class LiveSlots {
  private open = 0;
  private readonly openPerApp = new Map<string, number>();
  /** This process's slots in Redis, by app: renewed while their connections are open. */
  private readonly held = new Map<string, Set<string>>();
  private pausedUntil = 0;
  private renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: SlotLimits,
    private readonly redis: Redis | null,
    private readonly logger: FastifyBaseLogger,
    private readonly metrics: LiveMetrics,
  ) {}

  /** Counts a connection of the app in, or throws too_many_requests naming the limit; returns its release. */
  async admit(appId: string): Promise<() => void> {
    const { maxConnections, maxConnectionsPerApp } = this.limits;
    if (this.open >= maxConnections) {
      throw new DomainError(
        "too_many_requests",
        `this server already serves ${maxConnections} live connections (RECAP_LIVE_MAX_CONNECTIONS); try again later`,
      );
    }
    this.open += 1;
    const ofApp = (this.openPerApp.get(appId) ?? 0) + 1;
    this.openPerApp.set(appId, ofApp);
    let slot: string | null = null;
    try {
      slot = await this.takeShared(appId);
      if (slot === null && ofApp > maxConnectionsPerApp) throw this.perAppRefusal();
    } catch (error) {
      this.count(appId, -1);
      throw error;
    }
    this.metrics.opened();
    // A connection reports its end more than once (the stream's end, an error, the socket's close).
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.metrics.closed();
      this.count(appId, -1);
      if (slot !== null) this.releaseShared(appId, slot);
    };
  }

  /** Stops renewing slots (the process is stopping; they lapse unless released first). */
  close(): void {
    clearInterval(this.renewal);
  }

  private perAppRefusal(): DomainError {
    return new DomainError(
      "too_many_requests",
      `this app already has ${this.limits.maxConnectionsPerApp} live connections (RECAP_LIVE_MAX_CONNECTIONS_PER_APP); try again later`,
    );
  }

  private count(appId: string, change: number): void {
    this.open += change;
    const left = (this.openPerApp.get(appId) ?? 0) + change;
    if (left <= 0) this.openPerApp.delete(appId);
    else this.openPerApp.set(appId, left);
  }

  private key(appId: string): string {
    return `recap-live:${appId}`;
  }

  /**
   * A slot in the app's shared set, or null when there is no Redis or it failed (this process's count then
   * decides). Throws too_many_requests when the app's connections on every process reach the limit.
   */
  private async takeShared(appId: string): Promise<string | null> {
    if (this.redis === null || Date.now() < this.pausedUntil) return null;
    const slot = randomUUID();
    let taken: unknown;
    try {
      taken = await this.redis.eval(
        TAKE,
        1,
        this.key(appId),
        this.limits.maxConnectionsPerApp,
        SLOT_MS,
        slot,
      );
    } catch (error) {
      this.pause(error);
      return null;
    }
    if (taken !== 1) throw this.perAppRefusal();
    let slots = this.held.get(appId);
    if (slots === undefined) this.held.set(appId, (slots = new Set()));
    slots.add(slot);
    this.renewal ??= setInterval(() => this.renew(), RENEW_MS).unref();
    return slot;
  }

  private releaseShared(appId: string, slot: string): void {
    const slots = this.held.get(appId);
    slots?.delete(slot);
    if (slots?.size === 0) this.held.delete(appId);
    // A slot that cannot be removed now lapses within SLOT_MS.
    this.redis?.zrem(this.key(appId), slot).catch(() => undefined);
  }

  private renew(): void {
    for (const [appId, slots] of this.held) {
      this.redis
        ?.eval(RENEW, 1, this.key(appId), SLOT_MS, ...slots)
        .catch((error: unknown) => this.pause(error));
    }
  }

  private pause(error: unknown): void {
    if (Date.now() >= this.pausedUntil) {
      this.logger.warn(
        { err: error },
        "Redis is not answering: live connections per app are counted on this process alone for now",
      );
    }
    this.pausedUntil = Date.now() + REDIS_PAUSE_MS;
  }
}
