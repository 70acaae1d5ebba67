import type { QueryClient } from '@tanstack/react-query';
import { useGetIdentity } from 'react-admin';
import { forgetUserInfo } from '../providers/authProvider';
import type { UserInfo } from '../providers/authProvider';

/** The school years of the user's info and the current one: the lists' school-year filter and its default. */
export function useSchoolYears() {
  const { identity, isPending } = useGetIdentity();
  const info = identity as (Partial<UserInfo> & { id: unknown }) | undefined;
  return { isPending, years: info?.years ?? [], currentYear: info?.currentYear ?? null };
}

/** After a school year is added, changed or rolled over: every screen's year choices read again. */
export function refreshSchoolYears(queryClient: QueryClient): Promise<void> {
  forgetUserInfo();
  return queryClient.invalidateQueries({ queryKey: ['auth', 'getIdentity'] });
}
