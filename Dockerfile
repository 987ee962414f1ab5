# Recap's container image (docs/OPERATIONS.md, "Container image"): a build stage that compiles the server and
# the browser scripts, then a slim runtime with ffmpeg that runs as the unprivileged `node` user.
# NODE_IMAGE is any Debian bookworm image with Node.js 20.19 or newer and npm in /usr/local and a `node` user,
# as the official node images have; the repository's test builds on a local one (test/helpers/container.ts).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when no prebuilt binary fits the Node.js version or cannot be fetched.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/ scripts/
COPY src/ src/
# The compiled addon is all better-sqlite3 needs at run time: its sources and object files go with the dev deps.
RUN npm run build:client \
  && npm run build:server \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
    node_modules/better-sqlite3/build/Release/obj.target node_modules/better-sqlite3/build/Release/.deps

FROM ${NODE_IMAGE}
# ffmpeg and ffprobe decode media; bzip2 (with the base's tar) unpacks models that `recap models pull` fetches.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg bzip2 \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  RECAP_DATA_DIR=/data \
  RECAP_MODELS_DIR=/models
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules/ node_modules/
COPY --from=build /app/dist/ dist/
COPY --from=build /app/public/ public/
COPY bin/ bin/
# The Silero VAD every engine uses unless one is pulled into /models (models/silero-vad/README.md).
COPY models/silero-vad/ models/silero-vad/
# `recap demo`'s meeting, with the data set's licence.
COPY datasets/qmsum/LICENSE datasets/qmsum/README.md datasets/qmsum/
COPY datasets/qmsum/val/ datasets/qmsum/val/
# The application stays root's and read-only to the server; only the volumes are the node user's.
RUN ln -s /app/bin/recap /usr/local/bin/recap \
  && mkdir -p /data /models \
  && chown node:node /data /models
USER node
VOLUME ["/data", "/models"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The flags of `npm start` (package.json; the image's test holds the two to the same command).
CMD ["node", "--max-semi-space-size=4", "--max-old-space-size=1024", "dist/main.js"]
