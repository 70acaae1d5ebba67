/**
 * Staff personal data (the actions Personal, Apply and Approve of the page personal-data;
 * docs/product-rules.md#records-and-fields): what both halves agree on. The server keeps the identity card number sealed and
 * answers only its masked form (src/server/personal/).
 */

/** A change request's status, spelled as the product spells it (WAITTING with two T's: docs/conventions.md#naming). */
export const CONFIRM_STATUSES = ['WAITTING', 'CONFIRM', 'REJECT'] as const;
export type ConfirmStatus = (typeof CONFIRM_STATUSES)[number];

/** The tag colour each status is shown with (docs/product-rules.md#records-and-fields): warning, success, danger. */
export const CONFIRM_STATUS_TAGS: Record<ConfirmStatus, 'warning' | 'success' | 'error'> = {
  WAITTING: 'warning',
  CONFIRM: 'success',
  // MUI calls the danger colour "error"
  REJECT: 'error',
};

export const GENDERS = ['M', 'F'] as const;
export const IDENTITY_CARD_TYPES = ['HKID', 'PASSPORT', 'OTHER'] as const;
export type IdentityCardType = (typeof IDENTITY_CARD_TYPES)[number];

/** A Hong Kong identity card: one or two letters, six digits, the check digit (0–9 or A), brackets optional. */
export const HKID_PATTERN = /^([A-Z]{1,2})(\d{6})\(?([0-9A])\)?$/;
/** Any other document number: letters, digits and the separators printed on them. */
export const DOCUMENT_NUMBER_PATTERN = /^[A-Z0-9()/-]{4,30}$/;

/** The number as stored and compared: upper case, no spaces, full-width characters made plain (NFKC). */
export function normaliseDocumentNumber(value: string): string {
  return value.normalize('NFKC').toUpperCase().replace(/\s+/g, '');
}

/** Whether a (normalised) number is valid for its type. */
export function validDocumentNumber(type: string | null | undefined, value: string): boolean {
  return type === 'HKID' ? HKID_PATTERN.test(value) : DOCUMENT_NUMBER_PATTERN.test(value);
}

/**
 * The form every screen, answer and export shows: a Hong Kong card keeps its letters, the first
 * three digits and the check digit (A123***(7)); any other number its first two and last
 * characters.
 */
export function maskDocumentNumber(type: string | null | undefined, value: string): string {
  const n = normaliseDocumentNumber(value);
  const hk = type === 'HKID' ? HKID_PATTERN.exec(n) : null;
  if (hk) return `${hk[1]}${hk[2].slice(0, 3)}***(${hk[3]})`;
  if (n.length <= 3) return '***';
  return `${n.slice(0, 2)}***${n.slice(-1)}`;
}
