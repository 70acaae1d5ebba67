import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * QE's files hold a school's data, password hashes and the signing secret: they are readable
 * and writable by QE's own user only, whatever the umask. Existing files and folders (an
 * install from before) are put right at start.
 */
export function ownerOnlyFile(path: string, create = false): void {
  if (!existsSync(path)) {
    if (!create) return;
    closeSync(openSync(path, 'a', 0o600));
  }
  chmodSync(path, 0o600);
}

/** A folder only QE's own user may list and enter. */
export function ownerOnlyFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}
