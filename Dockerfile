# transcript-feed as a container image: one image, two roles. The default command runs the API;
# the crawler is `node dist/crawler/main.js` (compose.yaml runs both from this image on one volume).
#   podman build --format docker -t transcript-feed .                     the plain image
#   podman build --format docker --target browser -t transcript-feed:browser .   with Debian's Chromium
# BASE is any Debian bookworm image with Node >= 20.19 in /usr/local and a `node` user (uid 1000),
# as the official node:20-bookworm-slim; machines that cannot pull build a stand-in
# (test/container/base.sh). docs/container.md says how to run it.
ARG BASE=node:20-bookworm-slim

FROM ${BASE} AS build
# better-sqlite3 compiles against Node's headers when no prebuilt binary can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# A CA bundle for machines whose egress re-signs TLS (bind-mounted at build time, never in a layer).
ARG EXTRA_CA_CERTS=
ENV NODE_EXTRA_CA_CERTS=${EXTRA_CA_CERTS} npm_config_nodedir=/usr/local npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts=false
COPY tsconfig.json tsconfig.build.json ./
COPY api api
COPY crawler crawler
COPY shared shared
# better-sqlite3 keeps only its compiled module: the SQLite sources and object files are 25 MB.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && sqlite=node_modules/better-sqlite3 \
 && mv "$sqlite/build/Release/better_sqlite3.node" /tmp/ \
 && rm -rf "$sqlite/build" "$sqlite/deps" "$sqlite/src" node_modules/.cache /root/.npm \
 && mkdir -p "$sqlite/build/Release" && mv /tmp/better_sqlite3.node "$sqlite/build/Release/"

# What both runtime targets carry, in one layer: the build, production dependencies, the sample
# configuration (compose mounts the operator's own over it).
FROM scratch AS app
COPY --from=build /src/dist /app/dist
COPY --from=build /src/node_modules /app/node_modules
COPY --from=build /src/package.json /app/package.json
COPY config /app/config

FROM ${BASE} AS runtime
ENV NODE_ENV=production PORT=5000 HOST=0.0.0.0 DATABASE_URL=sqlite:data/transcript-feed.db
WORKDIR /app
# The store lives on a volume the image's user owns; nothing else in /app is writable by it.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
EXPOSE 5000
STOPSIGNAL SIGTERM
# /health on the port the API reads (PORT); the crawler's service overrides it with --crawler.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["node", "dist/shared/cli/healthcheck.js"]
CMD ["node", "dist/api/main.js"]

# --target browser: Debian's Chromium for the crawler's browser fallback (about 300 MB more).
FROM runtime AS browser
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium \
 && rm -rf /var/lib/apt/lists/*
COPY --from=app /app /app
USER node

# The default target: no browser (the crawler's start-up line says the fallback is off and why).
FROM runtime AS plain
COPY --from=app /app /app
USER node
