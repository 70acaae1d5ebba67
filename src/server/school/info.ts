import type { Config } from '../config.js';
import type { School } from '../db/schema.js';
import type { SchoolInfo } from '../../shared/calls/school.js';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../../shared/school-clock.js';

/** The school's fields (docs/product-rules.md#records-and-fields), and whether Google sign-in is offered and required. */
export function schoolInfo(s: School, config?: Config): SchoolInfo {
  const languageList = JSON.parse(s.languages) as SchoolInfo['languageList'];
  return {
    schoolId: s.id,
    nameHk: s.name_hk,
    nameEn: s.name_en,
    schoolLogo: s.school_logo,
    addressHk: s.address_hk,
    addressEn: s.address_en,
    tel: s.tel,
    fax: s.fax,
    app_logo: s.app_logo,
    app_view: s.app_view,
    host: s.host,
    email: s.email,
    graduate_grade: s.graduate_grade,
    school_pre: s.school_pre,
    grade_range: s.grade_range,
    edac_connect: s.edac_connect,
    languageList,
    requiredChinese: languageList.some((l) => l.code === 'zh-hk' && l.required === '1'),
    requiredEnglish: languageList.some((l) => l.code === 'en' && l.required === '1'),
    googleConfigured: Boolean(config?.google.clientId),
    googleRequired: s.google_required === 1,
    timeZone: isTimeZone(s.time_zone) ? s.time_zone : DEFAULT_TIME_ZONE,
  };
}
