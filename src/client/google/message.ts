/** What the /google-callback page posts to the window that opened it (same origin only). */
export interface GoogleMessage {
  type: 'qe-google';
  code: string | null;
  state: string | null;
  /** the provider's `error` (the user refused…), when there is no code */
  error?: string;
}

export const GOOGLE_MESSAGE = 'qe-google';
export const POPUP_NAME = 'qe-google';
export const POPUP_FEATURES = 'popup=yes,width=520,height=640';
