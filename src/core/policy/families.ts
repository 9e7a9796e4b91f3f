import type { Findings } from './findings.js';
import { targetsOf, type PathContext } from './targets.js';
import { flagsOf, type Word } from './words.js';

/**
 * Whole families of commands that act beyond the workspace: cloud and infra CLIs, package
 * publishing, services and firewalls, persistence, containers with host access, GitHub, and
 * database clients. Each has a short list of read-only verbs (low) and destructive verbs (high);
 * anything else changes something real and is medium.
 */
const CLOUD = new Set(['aws', 'gcloud', 'gsutil', 'az', 'kubectl', 'oc', 'helm', 'terraform', 'tofu', 'terragrunt', 'pulumi', 'eksctl', 'doctl', 'flyctl', 'fly', 'heroku', 'vercel', 'netlify', 'firebase', 'wrangler', 'railway', 'linode-cli', 'hcloud', 'scw', 'ibmcloud', 'oci', 's3cmd', 'rclone', 'ansible', 'ansible-playbook', 'nomad', 'consul', 'vault', 'cdk', 'sam', 'serverless', 'sls', 'kubeadm', 'minikube', 'kind', 'k3d', 'eb', 'copilot', 'supabase', 'neonctl', 'planetscale', 'pscale']);
const DESTRUCTIVE_VERB = /^(delete|destroy|rm|rb|remove|terminate|purge|uninstall|drain|reset|wipe|prune|deregister|revoke|nuke|kill|force-unlock|taint|rollback|undeploy|cordon|evict|teardown|down|disable|detach|detach-\w+|apps:destroy|pg:reset|addons:destroy|projects:delete|firestore:delete|database:remove|hosting:disable|functions:delete)$|^(delete|terminate|remove|deregister|destroy|purge|disable|revoke|detach|reset|cancel)-/;
const READ_VERB = /^(get|list|ls|describe|show|logs?|status|version|whoami|plan|validate|fmt|explain|top|diff|info|search|output|view|inspect|history|help|config|auth|login|cluster-info|api-resources|api-versions|preview|state\s+list|graph|providers|console|test|lint|template|dependency|repo|env|init)$|^(describe|list|get|show|view|lookup|head|check)-/;

function cloud(name: string, args: Word[], f: Findings): void {
  const values = args.map((w) => w.value);
  const { long, short } = flagsOf(args);
  const verbs = values.filter((v) => !v.startsWith('-'));
  const shown = `${name} ${verbs.slice(0, 3).join(' ')}`.trim();
  const destructive = verbs.find((v) => DESTRUCTIVE_VERB.test(v));
  if (destructive || long.has('--destroy') || values.includes('-destroy') || (name === 'aws' && verbs[0] === 's3' && verbs[1] === 'sync' && long.has('--delete')) || (name === 'gsutil' && verbs[0] === 'rm')) {
    f.add('high', 'cloud-destructive', `${shown} deletes or tears down cloud or cluster resources`);
    return;
  }
  if ((name === 'terraform' || name === 'tofu' || name === 'terragrunt' || name === 'pulumi') && (long.has('--auto-approve') || values.includes('-auto-approve') || long.has('--yes') || short.has('y')) ) {
    f.add('high', 'cloud-destructive', `${shown} applies infrastructure changes without a review step`);
    return;
  }
  if ((name === 'kubectl' || name === 'oc') && (long.has('--prune') || (verbs[0] === 'replace' && long.has('--force')) || (verbs[0] === 'scale' && values.some((v) => /^--replicas=0$/.test(v))))) {
    f.add('high', 'cloud-destructive', `${shown} can remove running workloads`);
    return;
  }
  if (name === 'aws' && verbs[0] === 'iam' && /^(create-access-key|attach-|put-\w*-policy|create-user|update-assume-role-policy|add-user-to-group)/.test(verbs[1] ?? '')) {
    f.add('high', 'cloud-permissions', `${shown} grants cloud permissions or credentials`);
    return;
  }
  if (/(add-iam-policy-binding|set-iam-policy|role\s+assignment)/.test(values.join(' '))) {
    f.add('high', 'cloud-permissions', `${shown} grants cloud permissions`);
    return;
  }
  const readOnly = verbs.length === 0 || verbs.slice(0, 3).some((v) => READ_VERB.test(v)) || (name === 'aws' && verbs[0] === 's3' && verbs[1] === 'ls');
  if (!readOnly) f.add('medium', 'cloud-change', `${shown} changes cloud or cluster resources`);
}

const PUBLISH: ReadonlyArray<[RegExp, string]> = [
  [/^(npm|pnpm|yarn|bun) (\S+ )*?(publish|unpublish|deprecate|dist-tag (add|rm)|owner (add|rm)|access (public|restricted|grant|revoke|set))\b/, 'publishes or changes a package on the npm registry'],
  [/^yarn npm publish\b/, 'publishes a package on the npm registry'],
  [/^cargo (publish|yank|owner)\b/, 'publishes or yanks a crate on crates.io'],
  [/^(twine upload|poetry publish|flit publish|hatch publish|uv publish|pdm publish)\b/, 'publishes a package on PyPI'],
  [/^gem (push|yank|owner)\b/, 'publishes a gem on RubyGems'],
  [/^(mvn|mvnw|\.\/mvnw) (\S+ )*?deploy\b/, 'deploys an artifact to a Maven repository'],
  [/^(gradle|gradlew|\.\/gradlew) (\S+ )*?(publish\w*|uploadArchives)\b/, 'publishes an artifact'],
  [/^(dotnet nuget push|nuget push)\b/, 'publishes a NuGet package'],
  [/^pod trunk push\b/, 'publishes a CocoaPod'],
  [/^(docker|podman|buildah) (\S+ )*?push\b/, 'pushes an image to a registry'],
  [/^(vsce|ovsx) publish\b/, 'publishes an editor extension'],
  [/^(lerna|changeset) publish\b/, 'publishes packages'],
  [/^(jsr|deno) publish\b/, 'publishes a package on JSR'],
  [/^mix hex\.publish\b/, 'publishes a package on Hex'],
  [/^goreleaser (release|publish)\b/, 'publishes a release'],
  [/^helm push\b/, 'pushes a chart to a registry'],
  [/^gh release (create|upload|edit)\b/, 'publishes a GitHub release'],
  [/^(semantic-release|release-it|np)\b/, 'publishes a release'],
];

function publish(line: string, f: Findings): void {
  const text = line.replace(/^(npx|bunx|pnpm (exec|dlx)|yarn dlx|npm exec)( --?\S+)* /, '');
  for (const [re, why] of PUBLISH) if (re.test(text)) f.add('high', 'package-publish', `${text.slice(0, 60)} ${why}; it is public and hard to take back`);
}

const SERVICE_READ = /^(status|is-active|is-enabled|is-failed|list-\w+|show|cat|help|--version|-l|-L|-S|-n|--list|list|--state|get-\w+|--query-\w+|version)$/;

function services(name: string, args: Word[], f: Findings): void {
  const values = args.map((w) => w.value);
  const first = values.find((v) => !v.startsWith('-') || SERVICE_READ.test(v)) ?? '';
  if (name === 'systemctl' || name === 'service' || name === 'launchctl' || name === 'rc-service' || name === 'sv') {
    const verb = name === 'service' ? values[1] ?? '' : first;
    if (values.length === 0 || SERVICE_READ.test(verb) || values.includes('status')) return;
    f.add('high', 'service-change', `${name} ${values.slice(0, 3).join(' ')} starts, stops or installs a system service`);
    return;
  }
  if (['iptables', 'ip6tables', 'nft', 'ufw', 'firewall-cmd', 'pfctl', 'iptables-restore', 'ip6tables-restore'].includes(name)) {
    if (values.length === 0 || values.every((v) => SERVICE_READ.test(v) || v === 'status' || v === 'verbose' || v === 'numbered' || /^-[nvL]+$/.test(v))) return;
    f.add('high', 'firewall-change', `${name} ${values.slice(0, 3).join(' ')} changes the firewall`);
    return;
  }
  if (['setenforce', 'sysctl', 'modprobe', 'insmod', 'rmmod', 'useradd', 'userdel', 'usermod', 'groupadd', 'groupdel', 'passwd', 'chpasswd', 'visudo', 'adduser', 'deluser', 'mount', 'umount', 'swapoff', 'update-grub', 'grub-install', 'chattr', 'setcap', 'aa-disable', 'auditctl'].includes(name)) {
    if (name === 'sysctl' && !values.some((v) => v === '-w' || v.includes('=') || v === '-p')) return;
    if ((name === 'mount' || name === 'umount') && values.length === 0) return;
    f.add('high', 'system-change', `${name} ${values.slice(0, 3).join(' ')} changes users, kernel or system security settings`);
  }
}

function persistence(name: string, args: Word[], f: Findings): void {
  const values = args.map((w) => w.value);
  if (name === 'crontab') {
    if (values.length === 1 && values[0] === '-l') return;
    if (values.includes('-r')) f.add('high', 'persistence', 'crontab -r deletes every scheduled job');
    else f.add('high', 'persistence', `crontab ${values.join(' ')} installs scheduled jobs that run later, unattended`.trim());
  } else if (name === 'at' || name === 'batch') {
    if (!values.some((v) => v === '-l' || v === '-r')) f.add('high', 'persistence', `${name} schedules a command to run later, unattended`);
  } else if (name === 'ssh-copy-id') {
    f.add('high', 'persistence', 'ssh-copy-id adds a key that may log in to another machine');
  }
}

const HOST_MOUNT_DANGER = /^(\/|\/etc|\/root|\/home|\/var|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/proc|\/sys|\/dev|\/boot|\/usr|~|\$HOME)(\/.*)?$/;

function containers(name: string, args: Word[], pc: PathContext, f: Findings): void {
  const values = args.map((w) => w.value);
  const verbs = values.filter((v) => !v.startsWith('-'));
  const line = values.join(' ');
  const run = verbs[0] === 'run' || verbs[0] === 'create' || (verbs[0] === 'container' && ['run', 'create'].includes(verbs[1] ?? '')) || verbs.includes('exec');
  if (run || verbs[0] === 'compose') {
    if (values.some((v) => /^--privileged(=true)?$/.test(v))) f.add('high', 'container-host-access', `${name} --privileged gives the container full access to the host`);
    if (/--(pid|ipc|userns|uts)[= ]host\b/.test(line)) f.add('high', 'container-host-access', `${name} shares the host's processes or user namespace`);
    if (/--cap-add[= ](ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|NET_ADMIN|DAC_READ_SEARCH)\b/i.test(line)) f.add('high', 'container-host-access', `${name} --cap-add grants the container host-level powers`);
    if (/--security-opt[= ](seccomp|apparmor|label)[=:]?(unconfined|disable)/.test(line)) f.add('high', 'container-host-access', `${name} turns off the container's confinement`);
    if (/--(network|net)[= ]host\b/.test(line)) f.add('medium', 'container-host-network', `${name} shares the host's network`);
    if (/--device\b/.test(line)) f.add('medium', 'container-host-access', `${name} --device passes a host device into the container`);
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      let spec: string | undefined;
      if (v === '-v' || v === '--volume') spec = values[i + 1];
      else if (v.startsWith('--volume=') || v.startsWith('-v')) spec = v.replace(/^(--volume=|-v)/, '');
      else if (v === '--mount' || v.startsWith('--mount=')) spec = (v === '--mount' ? values[i + 1] : v.slice(8))?.match(/(?:source|src)=([^,]+)/)?.[1];
      if (!spec) continue;
      const host = spec.split(':')[0]!;
      if (!host.startsWith('/') && !host.startsWith('~') && !host.startsWith('$') && !host.startsWith('.')) continue; // a named volume
      const dangerous = HOST_MOUNT_DANGER.test(host) && !host.startsWith('$PWD') && !/^\$\(pwd\)/.test(host);
      const places = targetsOf({ value: host, dynamic: false }, pc);
      if (dangerous || places.some((t) => t.sensitive || t.place === 'above' || t.place === 'outside' || (t.place === 'unknown' && !/^\$\{?PWD/.test(host)))) {
        f.add('high', 'container-host-mount', `${name} mounts the host path ${host} into the container`);
      }
    }
  }
  if (verbs[0] === 'system' && verbs[1] === 'prune') f.add(values.some((v) => v === '-a' || v === '--all' || v === '--volumes' || /^-\w*a/.test(v)) ? 'high' : 'medium', 'container-prune', `${name} system prune deletes images, containers${values.includes('--volumes') ? ' and volumes' : ''} for every project on this machine`);
  else if ((verbs[0] === 'volume' && ['rm', 'prune'].includes(verbs[1] ?? '')) || (verbs[0] === 'compose' && verbs.includes('down') && values.some((v) => v === '-v' || v === '--volumes'))) f.add('high', 'container-data-loss', `${name} ${verbs.slice(0, 2).join(' ')} deletes volumes and the data in them`);
  else if ((['image', 'container', 'network', 'builder'].includes(verbs[0] ?? '') && verbs[1] === 'prune') || verbs[0] === 'rmi' || (verbs[0] === 'rm' && values.some((v) => /^-\w*f|--force/.test(v)))) f.add('medium', 'container-delete', `${name} ${verbs.slice(0, 2).join(' ')} deletes images or containers`);
}

function github(args: Word[], f: Findings): void {
  const values = args.map((w) => w.value);
  const verbs = values.filter((v) => !v.startsWith('-'));
  const pair = `${verbs[0] ?? ''} ${verbs[1] ?? ''}`;
  if (/^(repo (delete|archive|rename|transfer)|release delete|secret (set|delete|remove)|variable (set|delete)|issue delete|ssh-key (add|delete)|gpg-key (add|delete)|auth (token|refresh)|cache delete|run delete|workflow disable|ruleset delete|codespace delete|org \w+|label delete)$/.test(pair)) {
    f.add('high', 'github-destructive', `gh ${pair} deletes or exposes something on GitHub, or changes who can act on it`);
  } else if (verbs[0] === 'repo' && verbs[1] === 'edit' && values.some((v) => v.startsWith('--visibility'))) {
    f.add('high', 'github-destructive', 'gh repo edit --visibility changes who can see the repository');
  } else if (verbs[0] === 'api' && (values.some((v, i) => (v === '-X' || v === '--method') && /^(DELETE|PUT|PATCH)$/i.test(values[i + 1] ?? '')) || values.some((v) => /^(-X|--method=)(DELETE|PUT|PATCH)$/i.test(v)))) {
    f.add('high', 'github-destructive', 'gh api with DELETE/PUT/PATCH changes GitHub directly');
  } else if (/^(pr merge|workflow run|run rerun)$/.test(pair) || (verbs[0] === 'api' && values.some((v) => /^(-X|--method|-f|-F|--field|--raw-field|--input)/.test(v)))) {
    f.add('medium', 'github-change', `gh ${pair} changes something on GitHub`);
  }
}

export const DB_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlite', 'mongo', 'mongosh', 'sqlcmd', 'cockroach', 'clickhouse-client', 'duckdb', 'bq', 'snowsql', 'pgcli', 'mycli', 'litecli', 'redis-cli', 'cqlsh', 'influx']);
export const DESTRUCTIVE_SQL: readonly RegExp[] = [
  /\bdrop\s+(table|database|schema|index|view|collection|user|role|keyspace|materialized\s+view|function|trigger)\b/i,
  /\btruncate\s+(table\s+)?[\w."`]+/i,
  /\bdelete\s+from\s+[\w."`]+\s*(;|$|"|'|\)|\n)/i,
  /\bupdate\s+[\w."`]+\s+set\s+(?![\s\S]*\bwhere\b)[^;]*(;|$)/i,
  /\balter\s+table\s+[\w."`]+\s+drop\b/i,
  /\.drop(Database|Collection)?\(\s*\)|\.(deleteMany|remove)\(\s*\{\s*\}\s*\)/,
  /\bflushall\b|\bflushdb\b/i,
  /\b(delete\s+from|update)\s+[\w."`]+[\s\S]*?\bwhere\s+(1\s*=\s*1|true|'1'\s*=\s*'1'|1)\s*(;|$|"|'|\))/i,
];
export const MIGRATIONS =
  /\b(prisma\s+(migrate\s+(deploy|dev|reset|resolve)|db\s+(push|execute))|db:(migrate|rollback|reset|drop|schema:load|setup)|manage\.py\s+(migrate|flush)|alembic\s+(upgrade|downgrade|stamp)|knex\s+migrate:\w+|sequelize(-cli)?\s+db:migrate\S*|typeorm(-ts-node-\w+)?\s+migration:(run|revert)|flyway\s+(migrate|clean|repair|undo)|liquibase\s+(update|rollback|drop-all)|diesel\s+(migration\s+(run|redo|revert)|database\s+reset)|goose\s+(\S+\s+){0,3}(up|down|reset|redo)|dbmate\s+(up|down|migrate|rollback|drop)|migrate\s+(-\S+\s+\S+\s+)*(up|down|drop|force)|(npm|pnpm|yarn|bun)\s+(run\s+)?(db:)?migrate\S*|mix\s+ecto\.(migrate|rollback|drop|reset)|sqlx\s+migrate\s+run|atlas\s+(migrate\s+apply|schema\s+apply)|supabase\s+db\s+(push|reset))\b/i;

function databases(name: string, text: string, f: Findings): void {
  if (name === 'dropdb' || name === 'dropuser' || (name === 'mysqladmin' && /\bdrop\b/.test(text))) f.add('high', 'destructive-sql', `${name} deletes a database or user`);
  if (DB_CLIENTS.has(name) && DESTRUCTIVE_SQL.some((re) => re.test(text))) f.add('high', 'destructive-sql', `${name} runs a destructive statement (DROP, TRUNCATE, DELETE or UPDATE without WHERE, FLUSHALL)`);
}

/** `text` is the command's words joined back, after wrappers were peeled. */
export function checkFamilies(name: string, args: Word[], text: string, pc: PathContext, f: Findings): void {
  if (CLOUD.has(name)) cloud(name, args, f);
  publish(text, f);
  services(name, args, f);
  persistence(name, args, f);
  if (['docker', 'podman', 'nerdctl', 'docker-compose'].includes(name)) containers(name === 'docker-compose' ? 'docker' : name, name === 'docker-compose' ? [{ value: 'compose', dynamic: false }, ...args] : args, pc, f);
  if (name === 'gh') github(args, f);
  databases(name, text, f);
  if (MIGRATIONS.test(text)) f.add('high', 'database-migration', `runs a database migration (${text.slice(0, 80)}); schema changes are hard to undo`);
}
