/**
 * Paths reachable without login (docs/product-rules.md#screens-and-routes); /404 too, so that anyone can be told a
 * page does not exist, and /google-callback, the Google sign-in popup's landing page (it only
 * hands the code to the window that opened it).
 */
export const PUBLIC_PATHS = ['/login', '/init', '/app/login', '/app/quick', '/tutorial', '/404', '/google-callback'];
