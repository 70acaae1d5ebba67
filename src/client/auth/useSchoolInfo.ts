import { useQuery } from '@tanstack/react-query';
import { request } from '../providers/http';

export interface SchoolInfo {
  schoolId: number;
  nameHk: string;
  nameEn: string;
  schoolLogo: string | null;
  languageList: { code: string; required: string }[];
}

/** The school record (public: the login page shows it too). */
export function useSchoolInfo() {
  return useQuery({
    queryKey: ['school-info'],
    queryFn: () => request<SchoolInfo>('/v1/school-info', { ignoreErr: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}
