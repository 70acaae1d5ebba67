import { sql } from 'kysely';
import { isPostgres, type DB } from '../db/connect.js';
import { TurnReads } from '../db/turn-reads.js';
import { permissionCatalogue, permissionEntries, rolePermissionCodes, type CatalogueRow } from '../developer/permission-queries.js';
import type { PermissionEntry } from '../../shared/permissions.js';
import { readToken, type TokenClaims } from './tokens.js';
import { calendar, userWithPersonalStatus } from './user-info.js';
import { schoolClock } from '../school/clock.js';
import { schoolDate } from '../../shared/school-clock.js';
import type { CacheVersions, Versions } from './cache-versions.js';

export type { Versions } from './cache-versions.js';

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
export type UserRow = Awaited<ReturnType<typeof userWithPersonalStatus>>;

interface Kept<T> {
  /** the counter as read before the value was: a kept value counts only while it is still current */
  version: number;
  value: T;
}

/** Sessions (and verified tokens) kept at most; past it the older half goes. */
const SESSIONS_KEPT = 20_000;

/**
 * Sessions, their accounts' permission codes, the permission catalogue, the school calendar and
 * the users' own rows, kept in memory while the counters of cache_versions — moved on by triggers
 * in the transaction of every change that matters — stay where they were. Every request reads the
 * counters (cache-versions.ts: on SQLite at once on the app's connection outside transactions, on
 * PostgreSQL one read shared by the requests that asked in the same turn) instead of the session join, the permission join,
 * the catalogue and the user; and a change — a logout, a role taken away, an account disabled, a
 * term edited, on this instance or another sharing the database — applies to the very next request.
 */
export class SessionCache {
  private sessions = new Map<string, Kept<SessionFacts | null>>();
  /** permission entries by the codes held (a school has a handful of distinct sets: its roles) */
  private entries = new Map<string, Kept<PermissionEntry[]>>();
  private catalogue: Kept<CatalogueRow[]> | null = null;
  /** the codes a set of roles gives (a school has a handful of distinct sets: pupils share one) */
  private roleCodes = new Map<string, Kept<Set<string>>>();
  private calendars: Kept<{ day: string; zone: string; value: Calendar }> | null = null;
  /** users' own rows by id, under the `profile` counter */
  private users = new Map<number, Kept<UserRow>>();
  /** tokens whose signature was checked: a token's claims and expiry never change */
  private tokens = new Map<string, TokenClaims & { expiresAt: number }>();

  /** A session, its account and the account's role ids (comma-separated) in one read, gathered per turn of the event loop. */
  private readonly sessionRow: (sessionId: string) => Promise<{ user_id: number; expires_at: number; revoked_at: number | null; questionnaire_id?: number | null; user_type: string; active: number; status: string; role_ids: string | null } | undefined>;

  constructor(
    private readonly db: DB,
    private readonly secret: string,
    private readonly counters: CacheVersions,
  ) {
    const roleIds = isPostgres(db)
      ? sql<string | null>`(select string_agg(ur.role_id::text, ',') from user_roles ur where ur.user_id = u.id)`
      : sql<string | null>`(select group_concat(ur.role_id) from user_roles ur where ur.user_id = u.id)`;
    const sessionRows = () =>
      db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.user_id', 's.expires_at', 's.revoked_at', 's.questionnaire_id', 'u.user_type', 'u.active', 'u.status', roleIds.as('role_ids')]);
    type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionRows>['executeTakeFirstOrThrow']>>;
    // the first calls of many pupils at once (a lesson's submissions): one query a turn (turn-reads.ts)
    const ofTurn = new TurnReads<string, SessionRow>(
      (id) => id,
      async (ids) => new Map((await sessionRows().select('s.id').where('s.id', 'in', ids).execute()).map(({ id, ...row }) => [id, row])),
    );
    this.sessionRow = (sessionId: string) => ofTurn.read(sessionId);
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
  versions(): Versions | Promise<Versions> {
    return this.counters.read();
  }

  /**
   * The facts of a session (null: no such session), from memory while nothing they depend on
   * changed, and the counters as read now: the request passes them on to the other reads.
   */
  async session(sessionId: string): Promise<{ facts: SessionFacts | null; seen: Versions }> {
    const seen = await this.versions();
    const kept = this.sessions.get(sessionId);
    if (kept && kept.version === seen.auth) return { facts: kept.value, seen };
    if (kept || this.sessions.size >= SESSIONS_KEPT) forgetOld(this.sessions, seen.auth);
    const facts = await this.read(sessionId, seen.auth);
    this.sessions.set(sessionId, { version: seen.auth, value: facts });
    return { facts, seen };
  }

  /** The permission entries (PermissionEntry) for a set of codes held, as of the counters `seen`. */
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

  /** A user's own row with the state of their latest personal-data request, as of the counters `seen`. */
  async user(userId: number, { profile }: Versions): Promise<UserRow> {
    const kept = this.users.get(userId);
    if (kept && kept.version === profile) return kept.value;
    if (this.users.size >= SESSIONS_KEPT) forgetOld(this.users, profile);
    const value = await userWithPersonalStatus(this.db, userId);
    this.users.set(userId, { version: profile, value });
    return value;
  }

  /** School years and terms, the current ones included (which depend on the school's day), and the school's time zone, as of the counters `seen`. */
  async calendar(versions: Versions): Promise<Calendar> {
    const zone = await schoolClock(this.db).zone(versions);
    const day = schoolDate(new Date(), zone);
    const kept = this.calendars;
    if (kept && kept.version === versions.calendar && kept.value.day === day && kept.value.zone === zone) return kept.value.value;
    const value = await calendar(this.db, day, zone);
    this.calendars = { version: versions.calendar, value: { day, zone, value } };
    return value;
  }

  /** A session, its account and the account's roles in one read; the roles' codes from memory under `auth`. */
  private async read(sessionId: string, auth: number): Promise<SessionFacts | null> {
    const row = await this.sessionRow(sessionId);
    if (!row) return null;
    return {
      userId: row.user_id,
      userType: row.user_type,
      expiresAt: Number(row.expires_at),
      revoked: row.revoked_at !== null,
      active: row.active,
      status: row.status,
      questionnaireId: row.questionnaire_id ?? null,
      permissions: await this.codesOfRoles(String(row.role_ids ?? ''), auth),
    };
  }

  private async codesOfRoles(roleIds: string, auth: number): Promise<Set<string>> {
    const ids = roleIds.split(',').filter(Boolean).map(Number).sort((a, b) => a - b);
    const key = ids.join(',');
    const kept = this.roleCodes.get(key);
    if (kept && kept.version === auth) return kept.value;
    if (this.roleCodes.size >= SESSIONS_KEPT) this.roleCodes.clear();
    const value = await rolePermissionCodes(this.db, ids);
    this.roleCodes.set(key, { version: auth, value });
    return value;
  }
}

/** Drops what was read under an older counter, and the older half when the map is still full. */
function forgetOld<K, T>(map: Map<K, Kept<T>>, version: number) {
  for (const [key, kept] of map) if (kept.version !== version) map.delete(key);
  if (map.size >= SESSIONS_KEPT) {
    let drop = map.size / 2;
    for (const key of map.keys()) {
      if (drop-- <= 0) break;
      map.delete(key);
    }
  }
}
