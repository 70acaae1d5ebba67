/**
 * The "new school year" roll-over as the server and the wizard screen both see it
 * (POST /v1/school-years/rollover/preview and /v1/school-years/rollover; src/server/school/rollover.ts).
 */

export interface RolloverRequest {
  /** the grade whose students leave; default school.graduate_grade, else the highest grade */
  graduateGradeId?: number;
  /** from-class → to-class, overriding the default (same class letter one grade up) */
  mapping?: { fromClassId: number; toClassId: number }[];
  /** create the classes next year lacks (the preview lists them) */
  createMissingClasses?: boolean;
  /** YYYY-MM-DD the new year becomes current; absent or today and before: at once */
  switchDate?: string | null;
}

export interface ClassMove {
  fromClassId: number;
  fromCode: string;
  fromNameHk: string;
  fromNameEn: string;
  students: number;
  /** the students of this class leave (graduating grade) */
  graduates: boolean;
  /** null for graduates, or when the target class does not exist yet (see missing) */
  toClassId: number | null;
  toCode: string | null;
  toNameHk: string | null;
  toNameEn: string | null;
  /** the target class is missing next year: it is created when asked to */
  missing: boolean;
}

export interface RolloverPreview {
  fromYear: { id: number; name: string };
  nextYear: { id: number | null; name: string; beginDate: string; endDate: string; terms: number };
  graduateGradeId: number;
  grades: { id: number; code: string; nameHk: string; nameEn: string }[];
  classes: { id: number; gradeId: number; code: string; nameHk: string; nameEn: string }[];
  moves: ClassMove[];
  /** students per class next year after the roll-over (those already entered for next year included) */
  after: { classId: number | null; code: string; nameHk: string; nameEn: string; students: number }[];
  promoted: number;
  graduates: number;
  /** students who already have a class next year (entered beforehand): kept as entered */
  alreadyPlaced: number;
  missingClasses: { gradeId: number; code: string; nameHk: string; nameEn: string }[];
  switchDate: string | null;
}
