// Before `npm start`: the compiled server must be there (npm run build makes it).
import { existsSync } from 'node:fs';
import console from 'node:console';
import process from 'node:process';

if (!existsSync('dist/node/server/main.js')) {
  console.error('QE is not built yet: run "npm run build" first (it compiles the server and builds the web client).');
  process.exit(1);
}
