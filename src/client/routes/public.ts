/** Paths reachable without login (spec §2 "Access rules"); /404 too, so that anyone can be told a page does not exist. */
export const PUBLIC_PATHS = ['/login', '/init', '/app/upload', '/app/login', '/app/quick', '/tutorial', '/404'];
