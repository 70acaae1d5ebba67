import type { ComponentType } from 'react';
import { NewSchoolYearButton } from '../school/new-year/NewSchoolYearButton';

/**
 * Actions an entity's list shows beside add, import and export, by entity key: what one entity
 * offers and the schema cannot say (the new school year on the school-year list).
 */
export const EXTRA_LIST_ACTIONS: Partial<Record<string, ComponentType>> = {
  schoolYear: NewSchoolYearButton,
};
