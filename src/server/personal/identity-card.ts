import type { Config } from '../config.js';
import { seal } from '../mail/secret.js';
import { maskDocumentNumber, normaliseDocumentNumber, validDocumentNumber } from '../../shared/personal.js';

/**
 * A staff member's identity card number is kept sealed with the server secret, like the SMTP
 * password (src/server/mail/secret.ts): whoever reads the database or a backup sees neither it
 * nor anything to search it by. Every answer and export shows only the masked copy stored beside
 * it (A123***(7)), so lists never need to open a seal.
 */
const CONTEXT = 'users.identity_card_no';

export interface SealedCard {
  sealed: string;
  masked: string;
}

/** The sealed and masked forms of a number given in a form or an import (null when it is not valid for its type). */
export function sealCard(config: Pick<Config, 'secret'>, type: string | null | undefined, given: string): SealedCard | null {
  const number = normaliseDocumentNumber(given);
  if (!validDocumentNumber(type, number)) return null;
  return { sealed: seal(config.secret, CONTEXT, number), masked: maskDocumentNumber(type, number) };
}
