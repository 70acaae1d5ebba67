/**
 * Paths reachable without login (docs/product-rules.md#screens-and-routes); /404 too, so that anyone can be told a
 * page does not exist, /google-callback, the Google sign-in popup's landing page (it only
 * hands the code to the window that opened it), and /sign-in-callback, where the school's
 * identity provider sends the browser back (auth/SignInCallbackScreen.tsx).
 */
export const PUBLIC_PATHS = ['/login', '/init', '/app/login', '/app/quick', '/tutorial', '/404', '/google-callback', '/sign-in-callback'];
