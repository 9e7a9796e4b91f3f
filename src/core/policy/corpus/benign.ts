import { bashLines, call, type CorpusEntry } from './types.js';

/**
 * Everyday calls an agent makes in a workspace: builds, tests, git, package installs, reading and
 * editing files. Drawn from the agent transcripts in ../shared/fixtures/agent-logs (the Bash
 * commands there are listed under "transcripts" and a test checks they stay in this list) and
 * from commands coding agents run every day. Levels were fixed when written: most are low; a few
 * are medium on purpose (a recursive delete inside the workspace, a write to /tmp, sudo).
 */
const TRANSCRIPTS = bashLines('transcripts', 'low', String.raw`
bd update spotter-dov.1 --status in_progress
`);

const BUILD_TEST = bashLines('build-test', 'low', String.raw`
npm test
npm run build
npm run lint
npm run typecheck
npm run test -- --watch=false
npm test -- src/core/policy
npm run dev
npm start
npm run format
npx vitest run src/core/policy/risk.test.ts
npx vitest run --reporter=verbose
npx tsc --noEmit
npx tsc -p tsconfig.json --noEmit
npx eslint src --ext .ts,.tsx
npx eslint . --fix
npx prettier --write src/
npx prettier --check .
npx playwright test e2e/web/approvals.spec.ts
npx jest --coverage
npx jest src/utils.test.ts
pnpm test
pnpm run build
pnpm -r build
pnpm --filter web dev
yarn test
yarn build
yarn lint --fix
bun test
bun run build
cargo build
cargo build --release
cargo test
cargo test -- --nocapture
cargo check
cargo clippy -- -D warnings
cargo fmt
cargo run -- --help
go build ./...
go test ./...
go test -run TestParse ./internal/...
go vet ./...
go mod tidy
gofmt -l .
pytest
pytest -q
pytest tests/test_api.py -k login -x
python -m pytest -v
python3 -m pytest tests/
python manage.py test
python3 -m unittest discover
tox -e py311
ruff check .
ruff format .
black src/
mypy src/
make
make test
make build
make -j4
cmake -S . -B build
cmake --build build
ctest --output-on-failure
mvn test
mvn -q package
./gradlew test
./gradlew build
gradle assemble
dotnet build
dotnet test
mix test
bundle exec rspec
bundle exec rake
rspec spec/models/user_spec.rb
swift build
swift test
deno test
deno task dev
node scripts/build-cli.js
node dist/index.js --help
tsx src/cli/index.ts --help
node --test test/
zig build test
stack test
`);

const GIT = bashLines('git', 'low', String.raw`
git status
git status --short
git diff
git diff --stat
git diff HEAD~1
git diff main...HEAD
git diff --cached
git log --oneline -20
git log -p -- src/core/policy/risk.ts
git log --graph --oneline --all
git show HEAD
git show --stat HEAD~2
git blame src/index.ts
git branch
git branch -a
git branch --show-current
git branch feature/policy
git checkout -b fix/policy-engine
git checkout main
git switch -c feature/x
git switch main
git add -A
git add src/core/policy/
git add -p
git commit -m "policy: add grants"
git commit -am "fix typo"
git push
git push origin main
git push -u origin feature/x
git pull
git pull --rebase=false
git fetch origin
git fetch --all --prune
git merge main
git merge --no-ff feature/x
git stash
git stash pop
git stash list
git tag v1.2.0
git remote -v
git rev-parse HEAD
git rev-parse --show-toplevel
git ls-files
git grep -n "assessRisk"
git worktree list
git cherry-pick abc123
git describe --tags
git shortlog -sn
git config user.name
git config --get remote.origin.url
git clone https://github.com/org/repo.git
git submodule update --init --recursive
git mv src/a.ts src/b.ts
git rm --cached build.log
git revert HEAD
git restore --staged src/index.ts
git bisect start
git apply fix.patch
git format-patch -1 HEAD
gh pr create --title "Policy" --body "x"
gh pr view 12
gh pr list
gh pr checkout 12
gh issue list
gh issue view 10
gh run list
gh run view 123 --log
`);

const PACKAGES = bashLines('packages', 'low', String.raw`
npm install
npm ci
npm install --save-exact web-tree-sitter@0.25.10
npm install -D vitest
npm i lodash
npm uninstall left-pad
npm update
npm outdated
npm ls web-tree-sitter
npm view tree-sitter-bash@0.25.1 engines
npm audit
npm pack --dry-run
pnpm install
pnpm add zod
yarn install
yarn add react
bun install
pip install -r requirements.txt
pip install requests
pip3 install --user black
python -m pip install -e .
uv sync
uv pip install httpx
poetry install
poetry add fastapi
cargo add serde
go get github.com/stretchr/testify
bundle install
gem install rails
composer install
brew install jq
npx create-vite@latest app -- --template react-ts
python3 -m venv .venv
source .venv/bin/activate
. .venv/bin/activate
`);

const INSPECT = bashLines('inspect', 'low', String.raw`
ls
ls -la
ls -la src/core/policy
ls ../shared
pwd
cat package.json
cat src/core/policy/risk.ts
cat ../shared/STACK.md
head -50 src/core/policy/narrow.ts
tail -n 100 build.log
tail -f server.log
wc -l src/core/policy/*.ts
grep -rn "assessRisk" src/
grep -r 'DROP TABLE' src/
rg "initPolicy" src
rg -n --type ts "deriveGrant"
find . -name "*.test.ts"
find src -type f -name '*.ts' | head -20
find . -name node_modules -prune -o -name '*.json' -print
tree -L 2 src
du -sh node_modules
df -h
file out/main/index.js
stat package.json
which node
node --version
npm --version
python3 --version
env | grep NODE
echo $PATH
printenv HOME
date
uname -a
whoami
id
hostname
ps aux | grep node
lsof -i :3000
top -bn1 | head -20
free -m
jq '.dependencies' package.json
jq -r '.scripts | keys[]' package.json
sed -n '1,40p' src/core/policy/risk.ts
awk -F, '{print $1}' data.csv
sort -u words.txt
uniq -c counts.txt
cut -d: -f1 /etc/passwd
diff -u a.txt b.txt
cmp a.bin b.bin
sha256sum dist/app.tgz
md5sum package-lock.json
xxd -l 64 out.bin
od -c file.txt | head
less README.md
man git-push
cat README.md | grep -i install
cat package.json | grep version
grep -c "it(" src/core/policy/risk.test.ts
git log --format=%H -1 | cut -c1-8
ls src | wc -l
echo "rm -rf /"
echo 'DROP TABLE users'
echo "curl x | sh" > notes.txt
printf '%s\n' hello
cat <<'EOF'⏎done⏎EOF
`);

const FILE_OPS = bashLines('file-ops', 'low', String.raw`
mkdir -p src/new
mkdir -p src/new && touch src/new/a.ts
touch src/core/policy/grants.ts
touch .
cp ../x .
cp a.txt b.txt
cp -r templates/ src/templates
cp ../shared/STYLE.md docs/
mv src/old.ts src/new.ts
mv build/output.log logs/
rm build/output.log
rm -f src/tmp.ts
rm src/a.ts src/b.ts
rmdir empty-dir
ln -s ../shared/fixtures fixtures
chmod +x scripts/run.sh
chmod 644 src/index.ts
tar -czf dist.tgz dist/
tar -xzf archive.tgz -C vendor/
unzip data.zip -d data/
zip -r out.zip out/
gzip -k big.log
sed -i 's/foo/bar/g' src/index.ts
sed -i.bak -e 's/a/b/' config.yml
perl -pi -e 's/old/new/' src/a.ts
echo '{}' > tsconfig.local.json
echo "node_modules" >> .gitignore
cat > src/gen.ts <<'EOF'⏎export const X = 1;⏎EOF
npm run build > build.log 2>&1
npm test 2>&1 | tee test.log
ls > /dev/null
npm run build 2>/dev/null
command -v node >/dev/null 2>&1
tee out.txt < in.txt
dd if=/dev/zero of=blank.img bs=1k count=10
truncate -s 0 app.log
curl -sS https://example.com -o page.html
curl -s https://registry.npmjs.org/zod | jq .version
curl -I https://example.com
curl -s http://localhost:3000/health
wget -q https://example.com/data.csv
wget https://example.com/file.tar.gz -O vendor/file.tar.gz
`);

const ONE_LINERS = bashLines('one-liners', 'low', String.raw`
python3 -c 'print(1)'
node -e "console.log(1)"
python3 -c "import sys; print(sys.version)"
python -c "import json,sys; print(json.load(sys.stdin)['name'])" < package.json
node -e "console.log(require('./package.json').version)"
node -p "process.versions.node"
python3 -c "import yaml; print(yaml.safe_load(open('config.yml')))"
ruby -e 'puts RUBY_VERSION'
perl -e 'print "hi\n"'
python3 -c "print(sum(range(10)))"
node -e "console.log(JSON.stringify({a: 1}))"
python3 -m json.tool data.json
python3 - <<'EOF'⏎print("hello")⏎EOF
bash -c 'npm test'
sh -c "cd src && ls"
bash -lc 'npm run build'
env NODE_ENV=test npm test
NODE_ENV=production npm run build
timeout 60 npm test
time npm run build
nohup npm run dev > dev.log 2>&1 &
xargs -n1 echo < list.txt
find . -name '*.ts' | xargs grep -l assessRisk
find src -name '*.ts' -exec wc -l {} +
find . -name "*.orig" -exec ls -la {} \;
for f in src/*.ts; do echo $f; done
while read l; do echo "$l"; done < list.txt
if [ -f package.json ]; then npm ci; fi
test -d node_modules || npm ci
[ -z "$CI" ] && echo local
cd src && ls
cd src/core && grep -rn policy .
cd .. && ls
pushd src && ls && popd
(cd web && npm run build)
export NODE_OPTIONS=--max-old-space-size=4096
set -e
sleep 2
true
echo done && exit 0
`);

const TOOLING = bashLines('tooling', 'low', String.raw`
docker ps
docker images
docker build -t app .
docker compose up -d
docker compose logs -f web
docker run --rm -v "$PWD":/app -w /app node:20 npm test
docker run --rm -p 8080:80 nginx
docker exec -it web sh
docker logs web
kubectl get pods
kubectl get pods -n staging -o wide
kubectl describe pod web-1
kubectl logs deploy/web
terraform plan
terraform validate
terraform fmt
aws s3 ls
aws sts get-caller-identity
gcloud config list
az account show
helm list
helm template chart/
psql -c "SELECT * FROM users WHERE id = 1"
psql -c "SELECT count(*) FROM orders"
sqlite3 app.db ".tables"
sqlite3 app.db "SELECT * FROM sessions LIMIT 5"
mysql -e "SHOW TABLES"
psql -c "DELETE FROM sessions WHERE expires_at < now()"
redis-cli PING
redis-cli GET key
ssh-keygen -lf ~/.ssh/id_ed25519.pub
systemctl status nginx
systemctl --user status baton
journalctl -u nginx --since today
crontab -l
iptables -L -n
ufw status
openssl rand -hex 16
code .
open http://localhost:5173
xdg-open index.html
chromium --headless --screenshot=shot.png http://localhost:5173
`);

/** Shapes coding agents use every day (Claude Code writes commit messages through a heredoc). */
const AGENT_PATTERNS = bashLines('agent-patterns', 'low', String.raw`
git commit -m "$(cat <<'EOF'⏎Fix the policy parser⏎⏎Co-Authored-By: Claude <noreply@anthropic.com>⏎EOF⏎)"
gh pr create --title "Policy" --body "$(cat <<'EOF'⏎## Summary⏎- tree-sitter⏎EOF⏎)"
cd @WS@ && npm test
npm test 2>&1 | head -50
for f in $(git ls-files '*.ts'); do wc -l "$f"; done
export PATH="$HOME/.local/bin:$PATH" && which foo
source ~/.nvm/nvm.sh && nvm use 20
timeout 30 node script.js || true
find . -type f -name "*.ts" -not -path "./node_modules/*" | xargs wc -l
echo $?
kill 12345
npx tsx -e "console.log(1)"
git diff | cat
echo "$HOME"
ls "$HOME/.cache"
git log --since="2 weeks ago" --pretty=format:"%h %s"
grep -rn "TODO" --include="*.ts" src | head -20
cd "$(git rev-parse --show-toplevel)" && ls
node -e "const x = require('./package.json'); console.log(x.name)"
jq '.version = "1.2.0"' package.json > package.json.tmp && mv package.json.tmp package.json
python3 manage.py runserver
docker compose exec db psql -U postgres -c "SELECT 1"
sleep 1 && curl -s localhost:3000
tar -xzf vendor.tgz -C vendor/
awk '{print $1}' f.txt
alias ll='ls -la'
trap 'echo done' EXIT
perl -pi -e 's/old/new/g' src/a.ts
git clone https://github.com/org/repo.git && cd repo && npm install
echo $GITHUB_TOKEN | gh auth login --with-token
`);

/** Bash syntax tree-sitter must read without an error (a parse error is rated high). */
const SHELL_SYNTAX = bashLines('shell-syntax', 'low', String.raw`
case "$1" in start) npm start ;; stop) echo stop ;; *) echo usage ;; esac
[[ $branch =~ ^feature/ ]] && echo yes
a=(1 2 3); echo "\${a[@]}"
echo $((1 + 2))
echo \${x//a/b}
function build { npm run build; }; build
if [[ -n "$CI" ]]; then npm ci; else npm install; fi
while IFS= read -r line; do echo "$line"; done < files.txt
printf -v out '%s' hi
diff <(sort a.txt) <(sort b.txt)
{ npm test; npm run lint; } > check.log 2>&1
npm test |& tee log.txt
echo $'a⏎b'
declare -A m=([k]=v)
(( i++ ))
shopt -s globstar; ls src/**/*.ts
echo {1..10}
[ -f package.json ] && echo yes
for ((i=0; i<3; i++)); do echo $i; done
select x in a b; do break; done
x=\${1:-default}
echo "\${PWD##*/}"
cat <<-EOF⏎	indented⏎	EOF
git log --format='%H %s' | while read h s; do echo "$h"; done
until curl -s localhost:3000; do sleep 1; done
exec 3<&-
trap - EXIT
local x=1
readonly Y=2
echo "$(( $(wc -l < f.txt) + 1 ))"
ls -1 | sort -r | head -n 3 | xargs -I {} echo {}
find . -name '*.ts' -print0 | xargs -0 -n1 basename
git diff --name-only HEAD~1 | grep -E '\.ts$' || true
echo 'it'"'"'s'
`);

const MEDIUM = bashLines('medium-on-purpose', 'medium', String.raw`
rm -rf node_modules
rm -rf dist build
rm -r coverage
rm -rf .next/cache
npm test > /var/tmp/test.log
sudo apt-get install -y jq
git checkout -- .
git branch -D old-feature
git rebase main
git commit --amend --no-edit
docker rm -f web
kubectl apply -f k8s/
helm upgrade --install web chart/
scp dist/app.tgz deploy@server:/srv/releases/
mkdir -p "$TMPDIR/x"
python3 "$SCRIPT"
ssh deploy@host 'systemctl status app'
sudo -u postgres psql -c "SELECT 1"
su postgres -c "psql -c 'SELECT 1'"
python3 -c "import json; json.dump({}, open('out.json', 'w'))"
node -e "require('fs').writeFileSync('out.json', '{}')"
`);

const TOOLS: CorpusEntry[] = [
  call('edit-tools', 'low', 'Write', { file_path: '@WS@/src/core/policy/grants.ts', content: 'export {};' }),
  call('edit-tools', 'low', 'Write', { file_path: 'src/new-file.ts', content: 'x' }),
  call('edit-tools', 'low', 'Edit', { file_path: '@WS@/src/index.ts', old_string: 'a', new_string: 'b' }),
  call('edit-tools', 'low', 'Edit', { file_path: 'src/../README.md', old_string: 'a', new_string: 'b' }),
  call('edit-tools', 'low', 'MultiEdit', { file_path: '@WS@/src/lib/util.ts', edits: [{ old_string: 'a', new_string: 'b' }] }),
  call('edit-tools', 'low', 'NotebookEdit', { notebook_path: '@WS@/docs/analysis.ipynb', new_source: 'print(1)' }),
  call('edit-tools', 'low', 'Write', { file_path: '@WS@/docs/policy.md', content: '# Policy' }),
  call('edit-tools', 'low', 'Write', { file_path: '@WS@/package.json', content: '{}' }),
  call('edit-tools', 'low', 'Write', { file_path: '@WS@/.gitignore', content: 'node_modules' }),
  call('edit-tools', 'low', 'Write', { file_path: '@WS@/.github/workflows/ci.yml', content: 'on: push' }),
  call('edit-tools', 'low', 'Read', { file_path: '@WS@/src/index.ts' }),
  call('edit-tools', 'low', 'Read', { file_path: '/etc/hosts' }),
  call('edit-tools', 'low', 'Read', { file_path: '@HOME@/.bashrc' }),
  call('edit-tools', 'low', 'Glob', { pattern: '**/*.ts', path: '@WS@/src' }),
  call('edit-tools', 'low', 'Grep', { pattern: 'assessRisk', path: '@WS@' }),
  call('edit-tools', 'low', 'LS', { path: '@WS@' }),
  call('edit-tools', 'low', 'TodoWrite', { todos: [] }),
  call('edit-tools', 'low', 'WebSearch', { query: 'tree-sitter-bash heredoc' }),
  call('edit-tools', 'low', 'WebFetch', { url: 'https://docs.npmjs.com/cli/v10/commands/npm-publish', prompt: 'flags' }),
  call('edit-tools', 'low', 'WebFetch', { url: 'https://tree-sitter.github.io/tree-sitter/', prompt: 'api' }),
  call('edit-tools', 'low', 'Task', { description: 'explore', prompt: 'find the parser' }),
  call('edit-tools', 'low', 'Bash', { command: 'npm test', description: 'Run tests' }),
  call('edit-tools', 'low', 'write_file', { file_path: '@WS@/src/gemini.ts', content: 'x' }),
  call('edit-tools', 'low', 'replace', { file_path: '@WS@/src/index.ts', old_string: 'a', new_string: 'b' }),
  call('edit-tools', 'low', 'read_file', { absolute_path: '@WS@/src/index.ts' }),
  call('edit-tools', 'low', 'list_directory', { path: '@WS@/src' }),
  call('edit-tools', 'low', 'run_shell_command', { command: 'npm run build', directory: 'src' }),
  call('edit-tools', 'low', 'shell', { command: ['bash', '-lc', 'npm test'], workdir: '@WS@' }),
  call('edit-tools', 'low', 'shell', { command: ['git', 'status'] }),
  call('edit-tools', 'low', 'shell', { command: ['rg', '-n', 'assessRisk', 'src'] }),
  call('edit-tools', 'low', 'exec_command', { cmd: 'cargo test' }),
  call('edit-tools', 'low', 'apply_patch', { input: '*** Begin Patch\n*** Update File: src/index.ts\n@@\n-a\n+b\n*** End Patch' }),
  call('edit-tools', 'low', 'apply_patch', { input: '*** Begin Patch\n*** Add File: src/new.ts\n+export const x = 1;\n*** Delete File: src/old.ts\n*** End Patch' }),
  call('edit-tools', 'low', 'apply_patch', { input: '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n@@\n-a\n+b\n*** End Patch' }),
  call('edit-tools', 'low', 'shell', { command: ['apply_patch', '*** Begin Patch\n*** Update File: README.md\n@@\n-a\n+b\n*** End Patch'] }),
  call('edit-tools', 'low', 'mcp__filesystem__read_file', { path: '@WS@/src/index.ts' }),
  call('edit-tools', 'low', 'mcp__filesystem__write_file', { path: '@WS@/src/mcp.ts', content: 'x' }),
  call('edit-tools', 'low', 'mcp__filesystem__list_directory', { path: '@WS@' }),
  call('edit-tools', 'low', 'mcp__github__get_issue', { owner: 'o', repo: 'r', issue_number: 10 }),
  call('edit-tools', 'low', 'mcp__db__query', { sql: 'SELECT * FROM users LIMIT 10' }),
];

export const BENIGN: readonly CorpusEntry[] = [...TRANSCRIPTS, ...BUILD_TEST, ...GIT, ...PACKAGES, ...INSPECT, ...FILE_OPS, ...ONE_LINERS, ...TOOLING, ...AGENT_PATTERNS, ...SHELL_SYNTAX, ...MEDIUM, ...TOOLS];
