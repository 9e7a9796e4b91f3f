// Runs the CLI from source (tests: `node --import tsx src/cli/run.ts task list`). The shipped entry
// is bin/baton.js, which loads the bundle that scripts/build-cli.js makes from ./index.ts.
import { main } from './index.js';

await main(process.argv);
