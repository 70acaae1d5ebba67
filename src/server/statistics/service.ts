import type { DB } from '../db/connect.js';
import type { AuthUser } from '../plugins/guard.js';
import type { Lang } from '../../shared/errors.js';
import type {
  RespondentPage,
  StatisticsComparison,
  StatisticsDetail,
  StatisticsFilter,
  StatisticsListQuery,
  StatisticsPage,
  StatisticsReply,
  StatisticsRespondentsQuery,
  StatisticsTermsQuery,
  StatisticsTextsQuery,
  TermList,
  TextMarksBody,
  TextMarksResult,
  TextPage,
  Withheld,
} from '../../shared/calls/statistics.js';
import { scopedQuestionnaire, statisticsList, type Scoped } from './scoped.js';
import { withheldResults } from './withholding.js';
import { statisticsDetail } from './detail.js';
import { oneReply, respondentPage, textPage } from './replies.js';
import { topTerms } from './frequentTerms.js';
import { comparison } from './series.js';
import { markTexts, mayMark } from './marks.js';

/**
 * The results of questionnaires, for the routes (index.ts), the exports and the dashboard: each
 * call first scopes the questionnaire to what the caller may read (scoped.ts); the summaries
 * come from the answer counters (detail.ts), the texts, respondents and single replies are paged
 * rows (replies.ts), and an anonymous questionnaire's small groups are withheld (withholding.ts).
 * What each answers is typed by the calls' schemas (src/shared/calls/statistics.ts).
 */
export class StatisticsService {
  constructor(
    private readonly db: DB,
    private readonly minGroupSize: number,
  ) {}

  list(user: AuthUser, query: StatisticsListQuery): Promise<StatisticsPage> {
    return statisticsList(this.db, user, query);
  }

  /** One questionnaire whose results the caller may read, or 404. */
  scoped(user: AuthUser, id: number): Promise<Scoped> {
    return scopedQuestionnaire(this.db, user, id);
  }

  withheld(scoped: Scoped, filter: StatisticsFilter): Promise<Withheld | null> {
    return withheldResults(this.db, scoped.row, filter, this.minGroupSize);
  }

  detail(scoped: Scoped, filter: StatisticsFilter, lang: Lang): Promise<StatisticsDetail> {
    return statisticsDetail(this.db, this.minGroupSize, scoped, filter, lang);
  }

  async texts(user: AuthUser, id: number, query: StatisticsTextsQuery): Promise<TextPage> {
    const scoped = await this.scoped(user, id);
    return textPage(this.db, this.minGroupSize, scoped, query, mayMark(user, scoped));
  }

  /** Marks text answers shown or hidden for a release (marks.ts). */
  async markTexts(user: AuthUser, id: number, body: TextMarksBody): Promise<TextMarksResult> {
    return markTexts(this.db, this.minGroupSize, user, await this.scoped(user, id), body);
  }

  /** The questionnaire's series, year by year (series.ts). */
  comparison(user: AuthUser, id: number, filter: StatisticsFilter, lang: Lang): Promise<StatisticsComparison> {
    return comparison(this.db, this.minGroupSize, user, id, filter, lang);
  }

  /** The most frequent words and phrases of a question's texts (frequentTerms.ts). */
  async terms(user: AuthUser, id: number, query: StatisticsTermsQuery): Promise<TermList> {
    return topTerms(this.db, this.minGroupSize, await this.scoped(user, id), query);
  }

  async respondents(user: AuthUser, id: number, query: StatisticsRespondentsQuery): Promise<RespondentPage> {
    return respondentPage(this.db, this.minGroupSize, await this.scoped(user, id), query);
  }

  async reply(user: AuthUser, id: number, replyId: string): Promise<StatisticsReply> {
    return oneReply(this.db, this.minGroupSize, await this.scoped(user, id), replyId);
  }
}
