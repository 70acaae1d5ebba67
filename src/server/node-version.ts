/**
 * QE's server needs Node 24.7 or later (argon2 in node:crypto; better-sqlite3 13 crashes on Node
 * 20 at its first query). The npm scripts run it on such a Node (scripts/qe-node.mjs); this stops
 * a direct `node dist/node/server/main.js` on an older one with a sentence, before anything is
 * written to the data folder.
 */
export function olderNodeProblem(version: string = process.versions.node): string | null {
  const [major, minor] = version.split('.').map(Number);
  if (major > 24 || (major === 24 && minor >= 7)) return null;
  return `QE needs Node.js 24.7 or later and this is ${version}: start it with npm start (or npm run demo), which brings Node 24 from the npm registry, or install Node.js 24.`;
}
