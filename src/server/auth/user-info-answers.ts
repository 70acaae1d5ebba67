import { schoolDate } from '../../shared/school-clock.js';
import type { AuthUser } from '../plugins/guard.js';

/** Answers kept at most; past it they are all dropped and built again as asked. */
const KEPT = 20_000;

/**
 * user-info's answers as sent — the JSON encoded once — by user (and reminder-link limit), kept
 * while the counters it was built under (auth, calendar, profile), the school's time zone and its
 * day stay where they were. Most of the call's time was turning the same 6 KB of permissions and
 * calendar into JSON and UTF-8 again (the pages that open each screen ask for it).
 */
export class UserInfoAnswers {
  private kept = new Map<string, { label: string; body: Buffer }>();

  async answer(me: AuthUser, zone: string, build: () => Promise<unknown>): Promise<Buffer> {
    const key = `${me.id}:${me.questionnaireId ?? ''}`;
    // the school's zone, and its day: the answer carries the zone and the term of the day
    const label = `${me.seen.auth}:${me.seen.calendar}:${me.seen.profile}:${zone}:${schoolDate(new Date(), zone)}`;
    const kept = this.kept.get(key);
    if (kept?.label === label) return kept.body;
    const body = Buffer.from(JSON.stringify(await build()));
    if (this.kept.size >= KEPT) this.kept.clear();
    this.kept.set(key, { label, body });
    return body;
  }
}
