#!/usr/bin/env bash
# The container smoke test (.ci/run runs it after npm test): both image targets built from the
# Dockerfile, the API and the crawler started from the same image on one volume against the
# project's fake platform on the host, and what a self-hoster relies on checked from outside:
# /health, the health check, a feed served end to end, the store on the volume, a restart, a clean
# stop, a non-root user, no secret in `podman inspect`, the logs or the image's layers.
# Bounded: the whole run gets SMOKE_TIMEOUT seconds (900). Nothing here passes silently: a machine
# where podman cannot start a container fails with the reason.
set -euo pipefail
if [ -z "${SMOKE_INNER:-}" ]; then
  exec timeout --kill-after=20 "${SMOKE_TIMEOUT:-900}" env SMOKE_INNER=1 bash "$0" "$@"
fi
cd "$(dirname "$0")/../.."
root=$PWD
t0=$(date +%s)
say() { echo "container: [$(( $(date +%s) - t0 ))s] $*"; }
fail() { echo "container: FAILED: $*" >&2; exit 1; }

missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v runc >/dev/null 2>&1 || missing+=(runc)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null || fail "could not install ${missing[*]}"
fi
# Our own podman settings (runc, cgroupfs, file events, ulimits this machine allows).
export CONTAINERS_CONF="$root/test/container/containers.conf"

run_id="tf-smoke-$$"
work=$(mktemp -d)
fake_pid=""
cleanup() {
  podman rm -f -t 0 "$run_id-api" "$run_id-crawler" "$run_id-browser" >/dev/null 2>&1 || true
  podman volume rm -f "$run_id-data" >/dev/null 2>&1 || true
  [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

base=$(bash test/container/base.sh) || fail "the stand-in base image could not be built"
say "base image $base"
if ! err=$(podman run --rm --pull=never "$base" node -e 'process.stdout.write("ok")' 2>&1); then
  fail "podman cannot start a container on this machine: $err"
fi

build_args=(--format docker --pull=never --build-arg "BASE=$base")
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  # Lent to the build for npm behind a TLS-re-signing egress; a bind mount, never a layer.
  build_args+=(-v /etc/ssl/certs:/run/host-certs:ro --build-arg EXTRA_CA_CERTS=/run/host-certs/ca-certificates.crt)
fi
image=localhost/transcript-feed:smoke
browser_image=localhost/transcript-feed:smoke-browser
b0=$(date +%s)
podman build "${build_args[@]}" -t "$image" . >"$work/build-plain.log" 2>&1 || { tail -40 "$work/build-plain.log"; fail "building the plain image"; }
say "plain image built in $(( $(date +%s) - b0 )) s"
b0=$(date +%s)
podman build "${build_args[@]}" --target browser -t "$browser_image" . >"$work/build-browser.log" 2>&1 || { tail -40 "$work/build-browser.log"; fail "building the browser image"; }
say "browser image built in $(( $(date +%s) - b0 )) s"

size() { podman image inspect --format '{{.Size}}' "$1"; }
mb() { echo $(( $1 / 1000000 )); }
base_size=$(size "$base"); plain_size=$(size "$image"); browser_size=$(size "$browser_image")
own=$(( plain_size - base_size ))
say "sizes: base $(mb "$base_size") MB; plain $(mb "$plain_size") MB ($(mb "$own") MB above the base); browser $(mb "$browser_size") MB"
[ "$own" -lt 120000000 ] || fail "the plain image's own layers are $(mb "$own") MB, over 120 MB"
[ "$(podman image inspect --format '{{.Config.User}}' "$image")" = node ] || fail "the image does not run as the non-root user node"
podman image inspect --format '{{json .Config.Healthcheck}}' "$image" | grep -q healthcheck.js || fail "the image has no HEALTHCHECK (built without --format docker?)"

# The fake platform on the host, and a free port for each listener (host networking: the
# containers reach the fake on 127.0.0.1, the test reaches the API there).
node --import tsx test/fake-platform/cli.ts --port 0 >"$work/fake.log" 2>&1 &
fake_pid=$!
for _ in $(seq 1 300); do grep -q '^PLATFORM_BASE_URL=' "$work/fake.log" && break; sleep 0.2; done
platform=$(sed -n 's/^PLATFORM_BASE_URL=//p' "$work/fake.log")
[ -n "$platform" ] || { cat "$work/fake.log"; fail "the fake platform did not start"; }
channel=$(awk '/@tiny/ {print $2}' "$work/fake.log")
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
api_port=$(free_port); metrics_port=$(free_port)
say "fake platform at $platform; channel $channel (3 videos)"

# Secrets as files a self-hoster would mount: a random reader key, a summary-model key, a proxy
# password. None may show in `podman inspect`, in the logs or in the image.
key="smoke-$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')"
summary_key="sk-smoke-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
proxy_password="pw-smoke-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
mkdir -p "$work/config" "$work/secrets"
printf 'security:\n  api_keys:\n    %s:\n      name: smoke reader\n      rate_limit: 600\n      enabled: true\n' "$key" >"$work/config/security.yaml"
printf '%s\n' "$summary_key" >"$work/secrets/summary_api_key"
printf 'http://smoke:%s@127.0.0.1:1\n' "$proxy_password" >"$work/secrets/proxy_urls"
chmod 755 "$work" "$work/config" "$work/secrets"; chmod 644 "$work/config/security.yaml" "$work/secrets/"*
podman volume create "$run_id-data" >/dev/null

# --health-interval disable: no systemd here to run the checks' timers; `podman healthcheck run` asks.
common=(--network host -v "$run_id-data:/app/data" -v "$work/config:/app/config:ro" -e "PLATFORM_BASE_URL=$platform" -e LOG_FORMAT=json)
start_api() {
  podman run -d --name "$run_id-api" "${common[@]}" --health-interval disable -v "$work/secrets:/run/secrets:ro" \
    -e "PORT=$api_port" -e HOST=127.0.0.1 -e SUMMARY_API_KEY_FILE=/run/secrets/summary_api_key \
    -e PLATFORM_PROXY_URLS_FILE=/run/secrets/proxy_urls "$image" >/dev/null
}
start_crawler() {
  podman run -d --name "$run_id-crawler" "${common[@]}" \
    -e CRAWL_PROFILE=fast -e CRAWL_BATCH_WAIT=0.05 -e CRAWL_POLL_SECONDS=1 -e CRAWLER_ID=smoke-crawler \
    -e "CRAWLER_METRICS_PORT=$metrics_port" --health-cmd 'node dist/shared/cli/healthcheck.js --crawler' --health-interval disable \
    "$image" node dist/crawler/main.js >/dev/null
}
health() { curl -fsS -o /dev/null "http://127.0.0.1:$api_port/health"; }
wait_health() {
  local s0; s0=$(date +%s%N)
  for _ in $(seq 1 600); do
    health 2>/dev/null && { echo $(( ($(date +%s%N) - s0) / 1000000 )); return 0; }
    [ "$(podman inspect -f '{{.State.Running}}' "$run_id-api")" = true ] || { podman logs "$run_id-api" | tail -20; fail "the API container exited"; }
    sleep 0.1
  done
  podman logs "$run_id-api" | tail -20; fail "/health did not answer within 60 s"
}
feed() { curl -sS -o "$work/feed.xml" -w '%{http_code}' "http://127.0.0.1:$api_port/?channel_id=$channel&api_key=$key"; }

start_api
first_health_ms=$(wait_health)
say "API container: /health answered $first_health_ms ms after start"
podman healthcheck run "$run_id-api" >/dev/null || fail "podman healthcheck run: the API container is not healthy"
say "podman healthcheck run: healthy"
start_crawler
code=$(feed)
[ "$code" = 404 ] || fail "first feed request: expected the spec's 404 (channel registered), got $code"
for _ in $(seq 1 240); do
  code=$(feed); [ "$code" = 200 ] && break
  [ "$(podman inspect -f '{{.State.Running}}' "$run_id-crawler")" = true ] || { podman logs "$run_id-crawler" | tail -20; fail "the crawler container exited"; }
  sleep 0.5
done
[ "$code" = 200 ] || { podman logs "$run_id-crawler" | tail -20; fail "the feed never turned 200 (last $code)"; }
entries=$(grep -c '<entry>' "$work/feed.xml" || true)
[ "$entries" -ge 1 ] && grep -q '&lt;p&gt;\|<p>' "$work/feed.xml" || { head -c 2000 "$work/feed.xml"; fail "the feed has no entry with a transcript"; }
say "feed 200 with $entries entries, transcripts stored through the crawler container"
for _ in $(seq 1 100); do podman healthcheck run "$run_id-crawler" >/dev/null 2>&1 && break; sleep 0.3; done
podman healthcheck run "$run_id-crawler" >/dev/null || fail "podman healthcheck run: the crawler container is not healthy"
podman logs "$run_id-crawler" 2>&1 | grep '"crawler started"' | grep -q '"browserFallback":false' || fail "the plain image's crawler start-up line does not say the browser fallback is off"

mount=$(podman volume inspect --format '{{.Mountpoint}}' "$run_id-data")
[ -s "$mount/transcript-feed.db" ] || fail "no SQLite file on the volume ($mount)"
[ "$(stat -c %u "$mount/transcript-feed.db")" = 1000 ] || fail "the store on the volume is not owned by the image's user"
[ "$(podman exec "$run_id-api" id -u)" = 1000 ] || fail "the API runs as root"
say "store on the volume ($(cat "$mount"/transcript-feed.db* | wc -c) bytes with its WAL, uid 1000); processes run as uid 1000"

before=$(sha256sum <"$work/feed.xml")
podman restart -t 10 "$run_id-api" "$run_id-crawler" >/dev/null
wait_health >/dev/null
[ "$(feed)" = 200 ] && [ "$(sha256sum <"$work/feed.xml")" = "$before" ] || fail "after a restart of both the feed is not what was stored"
say "restart of both: the same feed served from the volume"

for c in api crawler; do
  s0=$(date +%s%N)
  podman stop -t 10 "$run_id-$c" >/dev/null
  ms=$(( ($(date +%s%N) - s0) / 1000000 ))
  exit_code=$(podman inspect -f '{{.State.ExitCode}}' "$run_id-$c")
  [ "$exit_code" = 0 ] || fail "$c: SIGTERM gave exit $exit_code"
  [ "$ms" -lt 10000 ] || fail "$c: SIGTERM took $ms ms (at most 10 s)"
  line=$([ "$c" = api ] && echo '"shutting down"' || echo '"crawler stopped"')
  podman logs "$run_id-$c" 2>&1 | tail -n 5 | grep -q "$line" || fail "$c: no $line line at the end of its log"
  say "$c: SIGTERM → exit 0 in $ms ms, $line logged"
  declare "stop_ms_$c=$ms"
done

# The browser target: Chromium found by the crawler's own detection, as the image's user.
podman run --name "$run_id-browser" --no-healthcheck --network host -v "$run_id-data:/app/data" -e "PLATFORM_BASE_URL=$platform" \
  -e CRAWLER_ID=smoke-browser --entrypoint node "$browser_image" -e '
    const { findChromium } = require("./dist/crawler/chromium.js");
    const found = findChromium(null);
    if (!("path" in found)) { console.error(found.why); process.exit(1); }
    console.log(found.path);' >"$work/browser.out" 2>"$work/browser.err" || { cat "$work/browser.out" "$work/browser.err"; fail "the browser image has no Chromium the crawler finds"; }
say "browser target: Chromium at $(cat "$work/browser.out")"

for secret in "$key" "$summary_key" "$proxy_password"; do
  for c in api crawler; do
    podman inspect "$run_id-$c" | grep -qF "$secret" && fail "a secret shows in podman inspect of $c"
    podman logs "$run_id-$c" 2>&1 | grep -qF "$secret" && fail "a secret shows in the $c log"
  done
done
podman save --format docker-archive -o "$work/image.tar" "$image" >/dev/null
mkdir "$work/layers" && tar -xf "$work/image.tar" -C "$work/layers"
for layer in "$work"/layers/*/layer.tar "$work"/layers/*.tar; do
  [ -f "$layer" ] || continue
  for secret in "$key" "$summary_key" "$proxy_password"; do
    tar -xOf "$layer" 2>/dev/null | grep -aqF "$secret" && fail "a secret is inside a layer of the image"
  done
done
say "no secret in podman inspect, the logs or the image's layers"
if [ -n "${SMOKE_FIGURES:-}" ]; then
  # For bench/container.ts: sizes in bytes, the first /health and each SIGTERM → exit in ms.
  printf '{"base":%s,"plain":%s,"browser":%s,"firstHealthMs":%s,"stopApiMs":%s,"stopCrawlerMs":%s}\n' \
    "$base_size" "$plain_size" "$browser_size" "$first_health_ms" "$stop_ms_api" "$stop_ms_crawler" >"$SMOKE_FIGURES"
fi
say "passed in $(( $(date +%s) - t0 )) s"
