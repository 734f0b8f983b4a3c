/**
 * Browser authentication (docs/protocol.md §3.1, docs/architecture.md §10.2): an enrollment code
 * turns into a principal (the browser) with a session cookie; the cookie buys single-use WS
 * tickets; a ticket opens one WebSocket. Raw secrets exist only in the response that carries them
 * and in the request that presents them: the store keeps hashes, memory keeps hashes, logs keep
 * ids.
 */
import { describeError } from "../../support/describe-error.ts";
import { storageFault } from "../../support/storage-fault.ts";
import type { BrowserInfo } from "../../types/auth.ts";
import type { Authenticator, UpgradeDecision } from "./authenticator.ts";
import type { Clock } from "./clock.ts";
import { EnrollmentCodes, type Redemption } from "./enrollment-codes.ts";
import { hashSecret, newSecret } from "./secrets.ts";
import type { SecurityStore } from "./security-store.ts";
import { COOKIE_MAX_AGE_S, readSessionCookie, type Scheme, setCookieHeader } from "./session-cookie.ts";
import { parseTicketProtocols, SHARD_SUBPROTOCOL } from "./ticket-protocol.ts";
import { WsTickets } from "./ws-tickets.ts";

/** 503: the daemon cannot save what the request would create (a full disk); nothing changed. */
export type AuthRefusal = {
  ok: false;
  status: 401 | 409 | 429 | 503;
  message: string;
  retryAfterS?: number;
};

export interface BrowserAuthOptions {
  store: SecurityStore;
  clock: Clock;
  /** The allowed origins right now (they depend on the port the server got). */
  allowedOrigins: () => ReadonlySet<string>;
  log(line: string): void;
}

export class BrowserAuth implements Authenticator {
  private readonly codes: EnrollmentCodes;
  private readonly tickets: WsTickets;

  constructor(private readonly options: BrowserAuthOptions) {
    this.codes = new EnrollmentCodes(options.clock);
    this.tickets = new WsTickets(options.clock);
  }

  mintCode(): { code: string; expires_at: number } {
    this.options.log("enrollment code minted (valid 10 minutes, single use)");
    return this.codes.mint();
  }

  hasBrowsers(): boolean {
    return this.options.store.hasBrowsers();
  }

  /**
   * Redeems a code from `source` (the peer address) for a new browser and returns the
   * Set-Cookie header of its session. A store write that fails (a full disk) is a 503 that
   * says why, and the code stays good for a retry.
   */
  enroll(
    code: string,
    label: string,
    scheme: Scheme,
    source: string,
  ): { ok: true; browserId: string; setCookie: string } | AuthRefusal {
    const { store } = this.options;
    if (store.isFull()) {
      return {
        ok: false,
        status: 409,
        message: "too many enrolled browsers; revoke one (shard auth list, shard auth revoke <id>)",
      };
    }
    const token = newSecret();
    let redeemed: Redemption<{ browserId: string; sessionId: string }>;
    try {
      redeemed = this.codes.redeem(code, source, () =>
        store.enroll(label, hashSecret(token), scheme === "https", this.options.clock()),
      );
    } catch (err) {
      this.options.log(`enrollment not saved: ${describeError(err)}`);
      const cause = storageFault(err) ?? "daemon.log has the cause";
      return {
        ok: false,
        status: 503,
        message: `the daemon cannot save the new browser: ${cause}; then enroll again (this code still works)`,
      };
    }
    if (redeemed.ok) {
      const { browserId } = redeemed.value;
      this.options.log(`browser ${browserId} enrolled`);
      return { ok: true, browserId, setCookie: setCookieHeader(scheme, token) };
    }
    const retryAfterS = Math.ceil(this.codes.retryAfterMs(source) / 1000);
    if (redeemed.reason === "rate_limited") {
      // Not logged: the lock was logged once when it began, and a flood must not fill the log.
      return {
        ok: false,
        status: 429,
        message: `too many failed enrollment attempts; run \`shard auth enroll\` for a new code (it works at once), or try this one again in ${retryAfterS} s`,
        retryAfterS,
      };
    }
    this.options.log("enrollment refused: unknown, used or expired code");
    if (redeemed.locked !== undefined) {
      const whom = redeemed.locked === "global" ? "every address" : `address ${source}`;
      this.options.log(
        `enrollment locked for ${whom} for ${retryAfterS} s after repeated failures; codes minted from now on still work`,
      );
    }
    return {
      ok: false,
      status: 401,
      message:
        "this enrollment code is unknown, already used or expired; run `shard auth enroll` for a new one",
    };
  }

  /** A WS ticket for the session of this cookie, bound to the request's exact Origin. */
  bootstrap(
    cookieHeader: string | undefined,
    scheme: Scheme,
    origin: string,
  ): { ok: true; ticket: string; expires_at: number } | AuthRefusal {
    const cookie = readSessionCookie(cookieHeader, scheme);
    if (cookie.kind === "none") {
      return {
        ok: false,
        status: 401,
        message: "no session cookie: enroll this browser with the URL `shard auth enroll` prints",
      };
    }
    if (cookie.kind === "refused") return { ok: false, status: 401, message: cookie.message };
    const session = this.options.store.sessionByTokenHash(hashSecret(cookie.token));
    if (!session) {
      return {
        ok: false,
        status: 401,
        message: "this session is unknown or revoked; enroll this browser again (shard auth enroll)",
      };
    }
    // The server side ends a session when its cookie would have: a copied cookie does not outlive it.
    if (this.options.clock() - session.created_at >= COOKIE_MAX_AGE_S * 1000) {
      return {
        ok: false,
        status: 401,
        message: "this session has expired; enroll this browser again (shard auth enroll)",
      };
    }
    if (session.secure !== (scheme === "https")) {
      return {
        ok: false,
        status: 401,
        message: "this session was issued over another scheme; use the address it was enrolled on",
      };
    }
    this.options.store.touch(session.browser_id, this.options.clock());
    return {
      ok: true,
      ...this.tickets.issue({ browserId: session.browser_id, sessionId: session.id, origin }),
    };
  }

  /** The upgrade at /ws (after the Host check): 400 for the Origin, 401 for the ticket. */
  async authenticateUpgrade(request: Request): Promise<UpgradeDecision> {
    const origin = request.headers.get("origin");
    if (origin === null || !this.options.allowedOrigins().has(origin)) {
      return { ok: false, status: 400, message: "the Origin header is missing or not allowed" };
    }
    const offered = parseTicketProtocols(request.headers.get("sec-websocket-protocol"));
    if (!offered.ok) return { ok: false, status: 401, message: offered.message };
    const checked = this.tickets.consume(offered.ticket, origin);
    if (!checked.ok) {
      const why = {
        unknown: "unknown or already used",
        expired: "expired",
        wrong_origin: "issued for another origin",
      }[checked.reason];
      return {
        ok: false,
        status: 401,
        message: `the WebSocket ticket is ${why}; POST /bootstrap for a new one`,
      };
    }
    const { browserId, sessionId } = checked.binding;
    const session = this.options.store.sessionById(sessionId);
    if (!session || session.browser_id !== browserId) {
      return {
        ok: false,
        status: 401,
        message: "the ticket's session was revoked; enroll this browser again",
      };
    }
    const label = this.options.store.browsers().find((b) => b.id === browserId)?.label;
    return {
      ok: true,
      principal: browserId,
      protocol: SHARD_SUBPROTOCOL,
      ...(label !== undefined ? { label } : {}),
    };
  }

  list(): BrowserInfo[] {
    return this.options.store.browsers();
  }

  /** Forgets the browser, its sessions and its open tickets; false when it is not enrolled. */
  revoke(browserId: string): boolean {
    this.tickets.revokeBrowser(browserId);
    const revoked = this.options.store.revoke(browserId);
    if (revoked) this.options.log(`browser ${browserId} revoked`);
    return revoked;
  }
}
