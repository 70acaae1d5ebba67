import { useGetIdentity } from 'react-admin';
import type { UserInfo } from '../providers/authProvider';

/** The school years of the user's info and the current one: the lists' school-year filter and its default. */
export function useSchoolYears() {
  const { identity, isPending } = useGetIdentity();
  const info = identity as (Partial<UserInfo> & { id: unknown }) | undefined;
  return { isPending, years: info?.years ?? [], currentYear: info?.currentYear ?? null };
}
