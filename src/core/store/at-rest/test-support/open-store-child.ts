import { openStore } from '../../index.js';

/** Opens the store at ROOT in a process of its own (its own D-Bus connection), writes MARKER as a message, prints the at-rest status. */
const [root, marker] = process.argv.slice(2);
const store = await openStore(root!);
const s = await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'claude' }, holder: 'terminal' }, [{ role: 'user', content: marker! }]);
const back = (await store.readMessages(s.id))[0]!.content;
await store.close();
process.stdout.write(JSON.stringify({ atRest: store.atRest, back }));
