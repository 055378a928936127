// Entry point of `npm run data:fetch` (tsx build/fetch/main.ts). Logic lives in cli.ts.
import { main } from './cli.ts';

process.exitCode = await main(process.argv.slice(2));
