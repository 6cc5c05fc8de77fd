import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** One signed-in operator: who, and the token their forms must carry. */
export interface Session {
  readonly operator: string;
  /** The per-session token every state-changing form carries (see csrf.ts). */
  readonly csrf: string;
  readonly createdAt: number;
  /** The session ends at this time whatever happens: its lifetime, or the operator token's expiry if sooner. */
  readonly expiresAt: number;
  lastSeenAt: number;
  /** Asked on each use: false once the token the session came from was revoked. */
  readonly stillValid: (() => boolean | Promise<boolean>) | undefined;
}

/** How long sessions live. */
export interface SessionLimits {
  /** Longest life of a session, in milliseconds. */
  readonly lifetimeMs: number;
  /** A session not used for this long ends. */
  readonly idleMs: number;
}

// At most this many sessions at once: signing in again and again cannot grow memory without bound.
const maxSessions = 10_000;

const digest = (id: string) => createHash("sha256").update(id).digest("base64url");

/**
 * The signed-in sessions of one process, by a hash of their cookie's random id (the id itself is kept
 * nowhere but in the browser). A session ends at its absolute expiry, after `idleMs` unused, or when
 * its operator signs out; an ended session is never found again.
 */
export function createSessions(limits: SessionLimits, clock: () => number) {
  const sessions = new Map<string, Session>();

  const sweep = (now: number) => {
    for (const [key, session] of sessions) if (!alive(session, now)) sessions.delete(key);
  };
  const alive = (session: Session, now: number) =>
    now < session.expiresAt && now - session.lastSeenAt < limits.idleMs;

  return {
    /** A new session for `operator`, ending no later than `tokenExpiresAt`; returns the cookie's id. */
    open(
      operator: string,
      tokenExpiresAt: number,
      stillValid?: () => boolean | Promise<boolean>,
    ): { id: string; session: Session } {
      const now = clock();
      if (sessions.size >= maxSessions) sweep(now);
      if (sessions.size >= maxSessions) {
        // Still full of live sessions: the oldest one gives way (a Map iterates in insertion order).
        const oldest = sessions.keys().next().value;
        if (oldest !== undefined) sessions.delete(oldest);
      }
      const id = randomBytes(32).toString("base64url");
      const session: Session = {
        operator,
        csrf: randomBytes(32).toString("base64url"),
        createdAt: now,
        expiresAt: Math.min(now + limits.lifetimeMs, tokenExpiresAt),
        lastSeenAt: now,
        stillValid,
      };
      sessions.set(digest(id), session);
      return { id, session };
    },
    /** The live session of a cookie id, its idle clock started again; undefined once it ended. */
    use(id: string | undefined): Session | undefined {
      if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
      const key = digest(id);
      const session = sessions.get(key);
      if (session === undefined) return undefined;
      const now = clock();
      if (!alive(session, now)) {
        sessions.delete(key);
        return undefined;
      }
      session.lastSeenAt = now;
      return session;
    },
    /** The live session of a cookie id without starting its idle clock again (a live-update stream). */
    peek(id: string | undefined): Session | undefined {
      if (id === undefined) return undefined;
      const session = sessions.get(digest(id));
      return session !== undefined && alive(session, clock()) ? session : undefined;
    },
    close(id: string | undefined): void {
      if (id !== undefined) sessions.delete(digest(id));
    },
  };
}

/** The sessions of a workspace. */
export type Sessions = ReturnType<typeof createSessions>;

/** True when two secrets are equal, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
