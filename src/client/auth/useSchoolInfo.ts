import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SchoolInfo } from '../../shared/calls/school';
import { request } from '../providers/http';
import { setSchoolTimeZone } from '../common/schoolClock';

/** GET /v1/school-info: the school's fields, its language list, and the Google rule (src/shared/calls/school.ts). */
export type { SchoolInfo };

export const SCHOOL_INFO_KEY = ['school-info'];

/** Both languages required: what the forms assume until the school info has arrived. */
const BOTH = ['zh-hk', 'en'];

/**
 * The school record (public: the login page shows it too). Read again after a minute when a
 * page or the window comes back, so a change in the school settings reaches every user
 * without a restart; the settings screen refreshes it at once for its own user.
 */
export function useSchoolInfo() {
  return useQuery({
    queryKey: SCHOOL_INFO_KEY,
    queryFn: () =>
      request<SchoolInfo>('/v1/school-info', { ignoreErr: true }).then((info) => {
        // a time zone changed in the settings reaches this page with the school info
        setSchoolTimeZone(info.timeZone);
        return info;
      }),
    staleTime: 60_000,
    refetchOnWindowFocus: true,
    retry: false,
  });
}

/** The languages whose names the school requires (its language list), for the forms' checks. */
export function useRequiredLanguages(): string[] {
  const { data } = useSchoolInfo();
  return useMemo(() => (data ? data.languageList.filter((l) => l.required === '1').map((l) => l.code) : BOTH), [data]);
}
