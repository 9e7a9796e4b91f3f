// A new host's first screen, run in this process from the serve bundle (dist/cli/baton-serve.cjs):
// `baton serve --json` starts, then its page and the page's scripts are fetched as a browser does
// and the first screen's requests (src/renderer/src/components/ask-first-screen.ts) are asked over
// the page's WebSocket. The build warms the serve bundle's code cache with it (scripts/build-cli.js
// warmServeBundle) and src/cli/serve-bundle.test.ts checks that cache against it: one first screen
// for both. Run it with BATON_HOME, XDG_RUNTIME_DIR and HOME of a scratch data dir.
'use strict';
const { join } = require('node:path');
const { createRequire } = require('node:module');
const { compileServe } = require('../bin/load-cli.js');

const WebSocket = createRequire(join(__dirname, '..', 'package.json'))('ws');

/** The page's first requests: its first agents' page (AGENT_FIRST_PAGE rows) and the resume candidates. */
const FIRST_SCREEN_REQUESTS = [
  ['agents:list', { offset: 0, limit: 200 }],
  ['sessions:list', {}],
];

/** Starts the host from the serve bundle, answers its first screen, and returns the compiled bundle and the answers (the host keeps running). */
async function serveFirstScreen() {
  let printed = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => ((printed += chunk), write(chunk, ...rest));
  const serve = compileServe();
  await serve.cli.main(['node', 'baton', 'serve', '--port', '0', '--json']);
  process.stdout.write = write;
  const line = printed.split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`baton serve printed no address: ${printed}`);
  const url = new URL(JSON.parse(line).url);
  const page = await (await fetch(url)).text();
  for (const [, asset] of page.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) await (await fetch(new URL(asset, url))).arrayBuffer();
  const ws = new WebSocket(`ws://127.0.0.1:${url.port}/ws?token=${url.searchParams.get('token')}`, { origin: `http://127.0.0.1:${url.port}` });
  await new Promise((done, fail) => ws.once('open', done).once('error', fail));
  const answers = new Map();
  // An error answer fails the warm-up: a cache warmed on the error path would be kept without a word.
  const answered = new Promise((done, fail) =>
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const request = message.kind === 'response' ? FIRST_SCREEN_REQUESTS[message.id - 1] : undefined;
      if (!request) return;
      if (!message.result || message.result.ok !== true) return fail(new Error(`${request[0]} answered ${JSON.stringify(message.result).slice(0, 300)}`));
      answers.set(request[0], message.result);
      if (answers.size === FIRST_SCREEN_REQUESTS.length) done();
    }),
  );
  FIRST_SCREEN_REQUESTS.forEach(([channel, payload], i) => ws.send(JSON.stringify({ kind: 'request', id: i + 1, channel, payload })));
  await answered;
  ws.terminate();
  return { serve, answers: Object.fromEntries(answers) };
}

exports.serveFirstScreen = serveFirstScreen;
exports.FIRST_SCREEN_REQUESTS = FIRST_SCREEN_REQUESTS;
