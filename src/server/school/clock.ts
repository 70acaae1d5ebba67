import type { Kysely } from 'kysely';
import { cacheVersions, type CacheVersions, type Versions } from '../auth/cache-versions.js';
import { DEFAULT_TIME_ZONE, isTimeZone, schoolDate, schoolDateTime } from '../../shared/school-clock.js';

/**
 * The school's time zone as this instance knows it: read from the school row and kept while the
 * counter `school` of cache_versions (migration 0031, moved on by a trigger whenever the zone
 * changes, on any instance) stays where it was. A request passes the counters its guard read
 * (`me.seen`), so keeping the zone costs it nothing; background work reads them anew.
 */
export class SchoolClock {
  private kept: { version: number; zone: string } | null = null;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the app's database, either dialect
    private readonly db: Kysely<any>,
    private readonly counters: CacheVersions,
  ) {}

  /** The school's IANA time zone now (or as of the counters `seen`). */
  async zone(seen?: Versions): Promise<string> {
    const version = (seen ?? (await this.counters.read())).of('school');
    if (this.kept?.version === version) return this.kept.zone;
    const row = (await this.db.selectFrom('school').select('time_zone').orderBy('id').executeTakeFirst()) as { time_zone: string } | undefined;
    // no school yet (first run), or a zone this Node no longer knows: the default rather than a failure
    const zone = row && isTimeZone(row.time_zone) ? row.time_zone : DEFAULT_TIME_ZONE;
    this.kept = { version, zone };
    return zone;
  }

  /** Today on the school's clock, yyyy-MM-dd. */
  async today(seen?: Versions): Promise<string> {
    return schoolDate(new Date(), await this.zone(seen));
  }

  /** A moment's day on the school's clock, yyyy-MM-dd. */
  async dayOf(at: Date | string, seen?: Versions): Promise<string> {
    return schoolDate(at, await this.zone(seen));
  }

  /** A moment on the school's clock, yyyy-MM-dd HH:mm ('' for none). */
  async dateTimeOf(at: Date | string | null, seen?: Versions): Promise<string> {
    return schoolDateTime(at, await this.zone(seen));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const clocks = new WeakMap<Kysely<any>, SchoolClock>();

/**
 * The school clock of the app's database (one per database, so every area that holds `db` reads
 * the same kept zone). Pass the app's database, not a transaction: a transaction's reads of the
 * counters would wait for itself.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function schoolClock(db: Kysely<any>): SchoolClock {
  let clock = clocks.get(db);
  if (!clock) {
    clock = new SchoolClock(db, cacheVersions(db as never));
    clocks.set(db, clock);
  }
  return clock;
}
