// `npm run admin:create | backup | restore | audit:verify`: bundles the command
// (scripts/build-server.mjs, about 0.1 s; only files whose content changed are written) and runs
// it in this process with the arguments after its name, as `node .build/server/<name>.mjs` would.
import { pathToFileURL } from 'node:url';
import { buildCommand } from './build-server.mjs';

const [name] = process.argv.splice(2, 1);
await import(pathToFileURL(await buildCommand(name)).href);
