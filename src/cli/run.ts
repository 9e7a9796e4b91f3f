// The `baton` process entry: bundled into dist/cli/baton.js (npm run build:node), run by bin/baton.js.
import { main } from './index.js';

await main(process.argv);
