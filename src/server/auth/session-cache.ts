import type { DB } from '../db/connect.js';
import { permissionCatalogue, permissionEntries, userPermissionCodes, type CatalogueRow } from '../developer/permission-queries.js';
import type { PermissionEntry } from '../../shared/permissions.js';
import { readToken, type TokenClaims } from './tokens.js';
import { calendar } from './user-info.js';

/** What authentication reads of a session and its account. */
export interface SessionFacts {
  userId: number;
  userType: string;
  expiresAt: number;
  revoked: boolean;
  active: number;
  status: string;
  questionnaireId: number | null;
  permissions: Set<string>;
}

export type Calendar = Awaited<ReturnType<typeof calendar>>;

/** The counters of migration 0017, read together at the start of every authenticated request. */
export interface Versions {
  auth: number;
  calendar: number;
}

interface Kept<T> {
  /** the counter as read before the value was: a kept value counts only while it is still current */
  version: number;
  value: T;
}

/** Sessions (and verified tokens) kept at most; past it the older half goes. */
const SESSIONS_KEPT = 20_000;

/**
 * Sessions, their accounts' permission codes, the permission catalogue and the school calendar,
 * kept in memory while the counters of migration 0017 — moved on by triggers in the transaction
 * of every change that matters — stay where they were. Every request reads those two numbers:
 * one indexed read instead of the session join, the permission join and the catalogue, and a
 * change — a logout, a role taken away, an account disabled, a term edited, on this instance or
 * another sharing the database — applies to the very next request.
 */
export class SessionCache {
  private sessions = new Map<string, Kept<SessionFacts | null>>();
  /** permission entries by the codes held (a school has a handful of distinct sets: its roles) */
  private entries = new Map<string, Kept<PermissionEntry[]>>();
  private catalogue: Kept<CatalogueRow[]> | null = null;
  private calendars: Kept<{ day: string; value: Calendar }> | null = null;
  /** tokens whose signature was checked: a token's claims and expiry never change */
  private tokens = new Map<string, TokenClaims & { expiresAt: number }>();
  private readonly versionQuery;

  constructor(
    private readonly db: DB,
    private readonly secret: string,
  ) {
    this.versionQuery = db.selectFrom('cache_versions').select(['name', 'version']).compile();
  }

  /** The claims of a valid token, or null (malformed, forged, expired); the signature is checked once per token. */
  async claims(token: string): Promise<TokenClaims | null> {
    const known = this.tokens.get(token);
    if (known) return known.expiresAt > Date.now() ? known : null;
    const claims = readToken(this.secret, token);
    if (!claims) return null;
    if (this.tokens.size >= SESSIONS_KEPT) this.tokens.clear();
    this.tokens.set(token, claims);
    return claims;
  }

  /** The counters now. */
  async versions(): Promise<Versions> {
    const { rows } = await this.db.executeQuery<{ name: string; version: number | string }>(this.versionQuery);
    const of = (name: string) => Number(rows.find((r) => r.name === name)?.version ?? 0);
    return { auth: of('auth'), calendar: of('calendar') };
  }

  /**
   * The facts of a session (null: no such session), from memory while nothing they depend on
   * changed, and the counters as read now: the request passes them on to the other reads.
   */
  async session(sessionId: string): Promise<{ facts: SessionFacts | null; seen: Versions }> {
    const seen = await this.versions();
    const kept = this.sessions.get(sessionId);
    if (kept && kept.version === seen.auth) return { facts: kept.value, seen };
    if (kept || this.sessions.size >= SESSIONS_KEPT) this.forgetOld(seen.auth);
    const facts = await this.read(sessionId);
    this.sessions.set(sessionId, { version: seen.auth, value: facts });
    return { facts, seen };
  }

  /** The spec's permission entries for a set of codes held, as of the counters `seen`. */
  async permissionEntries(held: Set<string>, { auth }: Versions): Promise<PermissionEntry[]> {
    const key = [...held].sort().join(',');
    const kept = this.entries.get(key);
    if (kept && kept.version === auth) return kept.value;
    if (this.catalogue?.version !== auth) {
      this.catalogue = { version: auth, value: await permissionCatalogue(this.db) };
      this.entries.clear();
    }
    const value = permissionEntries(this.catalogue.value, held);
    this.entries.set(key, { version: auth, value });
    return value;
  }

  /** School years and terms, the current ones included (which depend on the day), as of the counters `seen`. */
  async calendar(versions: Versions): Promise<Calendar> {
    const day = new Date().toISOString().slice(0, 10);
    const kept = this.calendars;
    if (kept && kept.version === versions.calendar && kept.value.day === day) return kept.value.value;
    const value = await calendar(this.db);
    this.calendars = { version: versions.calendar, value: { day, value } };
    return value;
  }

  private async read(sessionId: string): Promise<SessionFacts | null> {
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .where('s.id', '=', sessionId)
      .select(['s.user_id', 's.expires_at', 's.revoked_at', 's.questionnaire_id', 'u.user_type', 'u.active', 'u.status'])
      .executeTakeFirst();
    if (!row) return null;
    return {
      userId: row.user_id,
      userType: row.user_type,
      expiresAt: Number(row.expires_at),
      revoked: row.revoked_at !== null,
      active: row.active,
      status: row.status,
      questionnaireId: row.questionnaire_id ?? null,
      permissions: await userPermissionCodes(this.db, row.user_id),
    };
  }

  /** Drops what was read under an older counter, and the older half when the map is full. */
  private forgetOld(version: number) {
    for (const [id, kept] of this.sessions) if (kept.version !== version) this.sessions.delete(id);
    if (this.sessions.size >= SESSIONS_KEPT) {
      let drop = this.sessions.size / 2;
      for (const id of this.sessions.keys()) {
        if (drop-- <= 0) break;
        this.sessions.delete(id);
      }
    }
  }
}
